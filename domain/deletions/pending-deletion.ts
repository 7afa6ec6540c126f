import type { Principal } from '../principal.js';
import { defined } from '../defined.js';

/**
 * A deletion a person asked for with a way back: the thing is out of use at once (hidden, not
 * fired, not granted), and it is carried out for good only after `undoUntil`. Until then an undo
 * puts it back as it was.
 */
export const DELETABLE_KINDS = ['app', 'automation', 'memory', 'thread', 'grant', 'connection'] as const;
export type DeletableKind = (typeof DELETABLE_KINDS)[number];

/** A purge that began this long ago and did not finish is taken up again (its instance may have died). */
export const PURGE_LEASE_MS = 60_000;

/** How long the way back stays open unless the deployment says otherwise. */
export const DEFAULT_UNDO_SECONDS = 10;

export interface PendingDeletionPrimitives {
  /** The id of the thing itself (`app_…`, `atm_…`): one pending deletion per thing. */
  readonly id: string;
  readonly kind: DeletableKind;
  /** Whose thing it is: only they see or undo it. */
  readonly owner: string;
  /** Who asked, as the deletion for good acts for them after the window (no request is there then). */
  readonly principal: Pick<Principal, 'subject' | 'kind' | 'name' | 'email'>;
  /** What the person calls it ("Release plan"), so the way back can name it after a reload. */
  readonly label: string;
  readonly requestedAt: string;
  readonly undoUntil: string;
  /** Set once the deletion is being carried out: too late to undo, and a failed purge is tried again. */
  readonly purgingSince?: string;
}

export class PendingDeletion {
  private constructor(private readonly props: PendingDeletionPrimitives) {}

  static request(input: {
    id: string;
    kind: DeletableKind;
    principal: Principal;
    label: string;
    now: Date;
    undoSeconds: number;
  }): PendingDeletion {
    const { subject, kind, name, email } = input.principal;
    return new PendingDeletion({
      id: input.id,
      kind: input.kind,
      owner: subject,
      principal: { subject, kind, ...defined({ name, email }) },
      label: input.label,
      requestedAt: input.now.toISOString(),
      undoUntil: new Date(input.now.getTime() + input.undoSeconds * 1000).toISOString(),
    });
  }

  static fromPrimitives(props: PendingDeletionPrimitives): PendingDeletion {
    return new PendingDeletion(props);
  }

  get id(): string {
    return this.props.id;
  }
  get kind(): DeletableKind {
    return this.props.kind;
  }
  get owner(): string {
    return this.props.owner;
  }
  get label(): string {
    return this.props.label;
  }
  get principal(): Principal {
    return this.props.principal;
  }
  get undoUntil(): string {
    return this.props.undoUntil;
  }

  /** The way back is open until `undoUntil`, and never once the purge began. */
  canUndo(now: Date): boolean {
    return !this.props.purgingSince && now.getTime() < Date.parse(this.props.undoUntil);
  }

  /** Due for good: the window closed, and no purge is under way (or the one that began was left off). */
  isDue(now: Date): boolean {
    if (this.props.purgingSince) return now.getTime() - Date.parse(this.props.purgingSince) >= PURGE_LEASE_MS;
    return now.getTime() >= Date.parse(this.props.undoUntil);
  }

  purging(now: Date): PendingDeletion {
    return new PendingDeletion({ ...this.props, purgingSince: now.toISOString() });
  }

  toPrimitives(): PendingDeletionPrimitives {
    return this.props;
  }
}
