import type { RecordSet } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AdoptionOutcome, AdoptionRequest } from '../../ports/use-cases/identity.js';
import { isAnonymousSubject } from '../../domain/principal.js';
import { AtomicityUnavailable, InvalidInput } from '../../domain/errors.js';
import type { SessionAdopter } from './session-adopter.js';

/** Which signed-in subject an anonymous session went to; it can go to one only. */
export interface AdoptionMarker {
  readonly to: string;
  readonly state: 'moving' | 'done';
  readonly at: string;
}

/**
 * The first authenticated request carrying a valid anonymous cookie moves that session's threads,
 * apps (with records and blobs) and state to the signed-in user. Grants, approvals, connected
 * accounts and history stay. The session is bound to its first adopter, so a cookie replayed by
 * another user later moves nothing.
 */
export class AdoptAnonymousSession implements UseCase<AdoptionRequest, AdoptionOutcome> {
  constructor(
    private readonly markers: RecordSet<AdoptionMarker>,
    private readonly adopters: ReadonlyArray<SessionAdopter>,
    private readonly clock: Clock,
  ) {}

  async execute({ from, to }: AdoptionRequest): Promise<AdoptionOutcome> {
    if (!isAnonymousSubject(from)) throw new InvalidInput('Only an anonymous session can be adopted');
    if (!(await this.bind(from, to.subject))) return 'refused';
    for (const adopter of this.adopters) await adopter.adopt(from, to.subject);
    await this.markers.put({ id: from, data: { to: to.subject, state: 'done', at: this.clock.now().toISOString() } });
    return 'adopted';
  }

  /**
   * True when the session is (now) bound to `to`. Binding must have one winner (two people racing
   * one replayed cookie), so a store without atomic inserts fails closed: nothing moves, the
   * cookie stays, and the floor logs why.
   */
  private async bind(from: string, to: string): Promise<boolean> {
    if (!this.markers.atomic) throw new AtomicityUnavailable('atomic inserts (to bind an anonymous session to one person)');
    const marker = { id: from, data: { to, state: 'moving' as const, at: this.clock.now().toISOString() } };
    if (await this.markers.atomic.insertIfAbsent(marker)) return true;
    const existing = await this.markers.get(from);
    return existing?.data.to === to;
  }
}
