/**
 * Whether an RFC 8707 resource indicator names the door whose resource URL is `door`: that URL
 * itself, or its origin, which the root-form protected-resource metadata describes (RFC 9728
 * §3.3), so a client that found the door through that document asks for the origin. Either way the
 * tokens are bound to the door's own URL.
 */
export function namesTheDoor(resource: string, door: string): boolean {
  if (resource === door) return true;
  const origin = new URL(door).origin;
  return URL.canParse(resource) && new URL(resource).href === new URL(origin).href;
}
