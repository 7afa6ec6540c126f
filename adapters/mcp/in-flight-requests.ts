/**
 * The JSON-RPC request ids a session is answering right now. The SDK transport pairs each answer
 * with its request by id, so a second request reusing an id still in flight (or twice in one
 * batch) would never be answered: it is refused before it reaches the transport.
 */
export class InFlightRequests {
  private readonly ids = new Set<string>();

  /** How many requests are being answered. */
  get size(): number {
    return this.ids.size;
  }

  /** Claims every id of the message(s) in `body`; false, claiming nothing, if one is taken. */
  claim(keys: ReadonlyArray<string>): boolean {
    if (keys.length === 1) {
      if (this.ids.has(keys[0]!)) return false;
      this.ids.add(keys[0]!);
      return true;
    }
    if (new Set(keys).size !== keys.length || keys.some((key) => this.ids.has(key))) return false;
    for (const key of keys) this.ids.add(key);
    return true;
  }

  release(keys: ReadonlyArray<string>): void {
    for (const key of keys) this.ids.delete(key);
  }
}

/**
 * The ids of the JSON-RPC requests (not notifications or responses) in a parsed body, keyed so
 * that `1` and `"1"` stay apart as the SDK keeps them. Anything that is not JSON-RPC yields none:
 * the transport answers it.
 */
export function requestIdsOf(parsed: unknown): string[] {
  const ids: string[] = [];
  for (const message of Array.isArray(parsed) ? (parsed as unknown[]) : [parsed]) {
    const id = requestIdOf(message);
    if (id !== null) ids.push(id);
  }
  return ids;
}

function requestIdOf(message: unknown): string | null {
  if (typeof message !== 'object' || message === null || !('method' in message) || !('id' in message)) return null;
  const id = (message as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? `${typeof id}:${String(id)}` : null;
}
