/** The time zones this browser knows (IANA names), with the chosen one and UTC always there. */
export function timeZones(chosen: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...known, 'UTC', chosen])].sort();
}
