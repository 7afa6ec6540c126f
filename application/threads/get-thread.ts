import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ThreadDetail } from '../../ports/use-cases/threads.js';
import type { ThreadBook } from './thread-book.js';

export class GetThread implements UseCase<{ principal: Principal; threadId: string }, ThreadDetail> {
  constructor(private readonly threads: ThreadBook) {}

  async execute(input: { principal: Principal; threadId: string }): Promise<ThreadDetail> {
    const { thread } = await this.threads.ownedBy(input.principal.subject, input.threadId);
    return { id: thread.id, title: thread.toPrimitives().title, messages: await this.threads.messagesOf(thread.id) };
  }
}
