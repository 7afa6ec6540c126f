import { createHash, timingSafeEqual } from 'node:crypto';
import { Unauthorized } from '../../domain/errors.js';
import type { UseCase } from '../../ports/use-case.js';
import type { Tick } from './tick.js';

/**
 * `POST /tick` for an external cron: the bearer must equal PORTER_TICK_SECRET. Both sides are
 * hashed first so the comparison is constant-time whatever their lengths. Without a configured
 * secret every tick is refused: the route fails closed.
 */
export class AuthorizedTick implements UseCase<{ bearer: string | null }, { runIds: ReadonlyArray<string> }> {
  private readonly expected: Buffer | null;

  constructor(
    private readonly tick: Tick,
    secret: string | null,
  ) {
    this.expected = secret ? digest(secret) : null;
  }

  async execute(input: { bearer: string | null }): Promise<{ runIds: ReadonlyArray<string> }> {
    const offered = digest(input.bearer ?? '');
    const matches = this.expected !== null && timingSafeEqual(offered, this.expected);
    if (!matches || !input.bearer) throw new Unauthorized('POST /tick needs the bearer PORTER_TICK_SECRET');
    // The wire answers the runs started; when the next slot falls is the in-process ticker's business.
    const { runIds } = await this.tick.execute();
    return { runIds };
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
