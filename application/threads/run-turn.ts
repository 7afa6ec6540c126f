import { Conflict, InvalidInput } from '../../domain/errors.js';
import { textOf, type UiMessage } from '../../domain/threads/ui-message.js';
import { rewound } from '../../domain/threads/rewind.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { Model } from '../../ports/model.js';
import type { UseCase } from '../../ports/use-case.js';
import type { TurnRequest, TurnStream } from '../../ports/use-cases/threads.js';
import type { GuardUseCases } from '../../ports/use-cases/guard.js';
import { LOST_RACE, retryOnConflict } from '../shared/retry-on-conflict.js';
import type { AgentTurn } from './agent-turn.js';
import type { ThreadBook } from './thread-book.js';
import type { TurnHub } from './turn-hub.js';

/** How long a turn holds its thread before another instance may consider it dead. */
export const TURN_LEASE_MS = 10 * 60 * 1000;

/** What RunTurn is built from. */
export interface RunTurnDeps {
  readonly threads: ThreadBook;
  readonly agent: AgentTurn;
  readonly hub: TurnHub;
  readonly decide: GuardUseCases['decideApproval'];
  readonly model: Model;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * `POST /threads/:id/turn`. The server owns history: only the new user message is taken. Approval
 * answers carried back on tool parts (the AI SDK's own approval response) are decided first. The
 * turn then runs in the background while the caller reads its chunks; other clients may rejoin.
 */
export class RunTurn implements UseCase<TurnRequest, TurnStream> {
  private readonly threads: ThreadBook;
  private readonly agent: AgentTurn;
  private readonly hub: TurnHub;
  private readonly decide: GuardUseCases['decideApproval'];
  private readonly model: Model;
  private readonly ids: Ids;
  private readonly clock: Clock;
  private readonly logger: Logger;

  constructor(deps: RunTurnDeps) {
    this.threads = deps.threads;
    this.agent = deps.agent;
    this.hub = deps.hub;
    this.decide = deps.decide;
    this.model = deps.model;
    this.ids = deps.ids;
    this.clock = deps.clock;
    this.logger = deps.logger;
  }

  async execute(request: TurnRequest): Promise<TurnStream> {
    this.model.assertConfigured();
    if (request.message && request.message.role !== 'user') throw new InvalidInput('A new message in a turn must come from the user');
    await this.threads.ownedBy(request.principal.subject, request.threadId);
    // A turn whose clients all left is still saving what it produced; let it finish first.
    await this.hub.settled(request.threadId);
    const loaded = await this.threads.ownedBy(request.principal.subject, request.threadId);
    const now = this.clock.now().toISOString();
    if (!loaded.thread.canStartTurnAt(now) || this.hub.find(request.threadId))
      throw new Conflict('A turn is already in flight on this thread; rejoin it with GET /threads/:id/stream');
    const turnId = this.ids.mint('turn');
    if (!(await this.threads.swap(loaded, loaded.thread.startTurn(turnId, now, TURN_LEASE_MS))))
      throw new Conflict('A turn is already in flight on this thread');

    try {
      for (const answer of request.answers ?? []) await this.answer(request, answer.approvalId, answer.approved);
      let messages = await this.threads.messagesOf(request.threadId);
      let added = 0;
      if (request.rewind) {
        const { kept, removed } = rewound(messages, request.rewind);
        await this.threads.deleteMessages(removed);
        messages = kept;
        added -= removed.length;
      }
      let continuing: UiMessage | null = null;
      if (request.message) {
        const message: UiMessage = {
          id: this.ids.mint('message'),
          role: 'user',
          parts: request.message.parts,
          ...(request.message.metadata !== undefined ? { metadata: request.message.metadata } : {}),
        };
        await this.threads.putMessage(request.threadId, message);
        messages.push(message);
        added += 1;
        if (loaded.thread.toPrimitives().messageCount === 0) await this.retitle(request.threadId, textOf(message));
      } else {
        const last = messages[messages.length - 1];
        continuing = last?.role === 'assistant' && !request.rewind ? last : null;
      }
      if (!continuing) added += 1;

      const live = this.hub.begin(request.threadId, continuing);
      const reader = live.read();
      void this.agent
        .run({
          principal: request.principal,
          threadId: request.threadId,
          messages,
          continuing,
          ...(request.credentials ? { credentials: request.credentials } : {}),
          signal: live.abort.signal,
          emit: (chunk) => live.push(chunk),
        })
        .then(
          () => this.release(request.threadId, turnId, added),
          async (error: unknown) => {
            this.logger.error('a turn could not be finished', { threadId: request.threadId, cause: String(error) });
            // The thread must not stay locked for the whole lease; whether the answer was saved is
            // unknown, so only the person's message is counted.
            await this.release(request.threadId, turnId, continuing ? added : added - 1);
          },
        )
        .catch((error: unknown) => this.logger.error('a turn could not be released', { threadId: request.threadId, cause: String(error) }))
        .finally(() => this.hub.finish(live));
      return reader;
    } catch (error) {
      await this.release(request.threadId, turnId, 0);
      throw error;
    }
  }

  /** An approval answer is recorded once; the same answer again is harmless. */
  private async answer(request: TurnRequest, approvalId: string, approve: boolean): Promise<void> {
    try {
      await this.decide.execute({ principal: request.principal, approvalId, approve });
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
    }
  }

  private async retitle(threadId: string, text: string): Promise<void> {
    const current = await this.threads.find(threadId);
    if (current) await this.threads.save(current.thread.titledBy(text));
  }

  private async release(threadId: string, turnId: string, added: number): Promise<void> {
    // Every round lost means another write landed; if they never stop, the lease lapses on its own.
    await retryOnConflict(
      async () => {
        const current = await this.threads.find(threadId);
        if (!current) return;
        return (await this.threads.swap(current, current.thread.endTurn(turnId, this.clock.now().toISOString(), added)))
          ? undefined
          : LOST_RACE;
      },
      { exhausted: () => undefined },
    );
  }
}
