/** A feed namespace: 1 to 64 letters, digits, `_`, `.` or `-` (a PostgreSQL notification names it before a space). */
export function checkNamespace(namespace: string): void {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(namespace))
    throw new RangeError(`"${namespace}" is not a feed namespace (1 to 64 of A-Z, a-z, 0-9, _ . -)`);
}
