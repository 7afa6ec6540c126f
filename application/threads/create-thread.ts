import { Thread } from '../../domain/threads/thread.js';
import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ThreadBook } from './thread-book.js';

export class CreateThread implements UseCase<{ principal: Principal }, { id: string }> {
  constructor(
    private readonly threads: ThreadBook,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  async execute({ principal }: { principal: Principal }): Promise<{ id: string }> {
    const thread = Thread.start({ id: this.ids.mint('thread'), owner: principal.subject, now: this.clock.now().toISOString() });
    await this.threads.save(thread);
    return { id: thread.id };
  }
}
