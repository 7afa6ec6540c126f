import type { DeletableKind } from '../../domain/deletions/pending-deletion.js';
import type { Principal } from '../../domain/principal.js';

/**
 * One family's part in deleting with a way back. `describe` checks the thing is the person's
 * (not-found otherwise) and names it; `suspend` is what must happen at once for safety (a revoked
 * grant grants nothing from this moment), undone by `restore`; `purge` is the deletion for good,
 * carried out once the window closed. A family whose things are merely hidden meanwhile needs
 * neither `suspend` nor `restore`: its lists and triggers leave held things out.
 */
export interface Deletable {
  readonly kind: DeletableKind;
  describe(principal: Principal, id: string): Promise<string>;
  suspend?(principal: Principal, id: string): Promise<void>;
  restore?(principal: Principal, id: string): Promise<void>;
  purge(principal: Principal, id: string): Promise<void>;
}

/** What lists and triggers ask, to leave out things waiting to be deleted. */
export interface HeldDeletions {
  heldIds(owner: string, kind: DeletableKind): Promise<ReadonlySet<string>>;
  holds(id: string): Promise<boolean>;
  /** Every owner's held ids of `kind` (what a tick leaves out). */
  everyHeld(kind: DeletableKind): Promise<ReadonlySet<string>>;
}
