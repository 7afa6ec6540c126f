/**
 * A record read from the store does not have the shape its aggregate is stored in: a migration
 * missed it, or another writer put something else there. It is a server bug, not the caller's
 * input, so it is deliberately not a DomainError: the wire logs it and answers 500 `internal`.
 */
export class StoredShapeInvalid extends Error {
  constructor(
    readonly collection: string,
    readonly id: string,
    readonly issues: ReadonlyArray<string>,
  ) {
    super(`The stored record ${collection}/${id} does not have the shape it is stored in: ${issues.join('; ')}`);
    this.name = 'StoredShapeInvalid';
  }
}
