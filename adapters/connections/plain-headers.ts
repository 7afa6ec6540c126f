/** Response headers as a plain record of strings, whatever the client library hands back. */
export function plainHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers || typeof headers !== 'object') return out;
  const source = typeof (headers as { toJSON?: unknown }).toJSON === 'function' ? (headers as { toJSON(): object }).toJSON() : headers;
  for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
    if (typeof value === 'string') out[name.toLowerCase()] = value;
    else if (Array.isArray(value)) out[name.toLowerCase()] = value.map(String).join(', ');
    else if (typeof value === 'number') out[name.toLowerCase()] = String(value);
  }
  // Never hand a tool the provider's cookies: they belong to the broker's session, not the person.
  delete out['set-cookie'];
  return out;
}
