/**
 * A message typed on the home page travels to the new thread's view through here: the thread is
 * created first (so the URL is real), then the view sends it once.
 */
const waiting = new Map<string, string>();

export function rememberFirstMessage(threadId: string, text: string): void {
  waiting.set(threadId, text);
}

export function takeFirstMessage(threadId: string): string | undefined {
  const text = waiting.get(threadId);
  waiting.delete(threadId);
  return text;
}
