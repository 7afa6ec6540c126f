import { NotFound } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ConnectionView } from '../../ports/use-cases/connections.js';
import type { ConnectionBook } from './connection-book.js';
import type { ConnectionRefresh } from './connection-refresh.js';
import { viewOf } from './connection-view.js';

/** `GET /connections/:id`: the caller's connection, brought up to date with the broker. */
export class GetConnection implements UseCase<{ principal: Principal; connectionId: string }, ConnectionView> {
  constructor(
    private readonly book: ConnectionBook,
    private readonly refresh: ConnectionRefresh,
  ) {}

  async execute(input: { principal: Principal; connectionId: string }): Promise<ConnectionView> {
    this.refresh.assertConfigured();
    const current = await this.refresh.refresh(await this.book.ownedBy(input.principal.subject, input.connectionId));
    if (!current) throw new NotFound('Connection');
    return viewOf(current);
  }
}
