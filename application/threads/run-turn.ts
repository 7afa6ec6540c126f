import { chunksRebuilding, type UiChunk } from '../../domain/threads/ui-chunk.js';
import type { UseCase } from '../../ports/use-case.js';
import type { TurnRequest, TurnStream } from '../../ports/use-cases/threads.js';
import type { AgentTurn } from './agent-turn.js';
import type { TurnLease } from './turn-lease.js';
import { TurnAdmission, type AdmittedTurn, type PlaceInLine, type TurnAdmissionDeps } from './turn-admission.js';
import { TurnRelay } from './turn-relay.js';
import { TurnSettlement, type TurnSettlementDeps } from './turn-settlement.js';
import type { TurnSettings } from './turn-settings.js';
import { defined } from '../../domain/defined.js';

export { TURN_LEASE_MS } from './turn-settings.js';

/** What RunTurn is built from: what its admission and settlement need, and the agent and lease it runs between them. */
export interface RunTurnDeps extends TurnAdmissionDeps, TurnSettlementDeps {
  readonly agent: AgentTurn;
  readonly lease: TurnLease;
  readonly settings: TurnSettings;
}

/**
 * `POST /threads/:id/turn`. The server owns history: only the new user message is taken. Approval
 * answers carried back on tool parts (the AI SDK's own approval response) are decided first. The
 * turn then runs in the background while the caller reads its chunks; every chunk also goes to
 * the turn's feed (as they come once a reader elsewhere follows it), so readers on any instance
 * can rejoin it. The turn holds its thread with a lease renewed while it runs; a turn left by an
 * instance that died is released when its lease lapses (on PostgreSQL, as soon as its instance's
 * liveness mark is gone), and the next turn starts over it.
 *
 * While a turn runs, a second message does what `concurrentTurns` says: `reject` answers 409;
 * `enqueue` takes a place in the thread's line and streams once the turns ahead of it ended;
 * `interrupt` also asks the turn in flight to stop. A message the client sent before (the same
 * id) is not stored again: it joins the turn carrying it, or gets the answer stored (SentAgain).
 *
 * A turn is admitted (TurnAdmission), runs (AgentTurn, its chunks relayed) and is settled
 * (TurnSettlement), in that order.
 */
export class RunTurn implements UseCase<TurnRequest, TurnStream> {
  /** How each turn ends: its thread released, its stream closed, then its title. */
  private readonly settlement: TurnSettlement;
  /** How each turn begins: its thread taken (or a place in line), its budgets checked, its message stored. */
  private readonly admission: TurnAdmission;

  constructor(private readonly parts: RunTurnDeps) {
    this.settlement = new TurnSettlement(parts);
    this.admission = new TurnAdmission(parts, this.settlement);
  }

  /** Admission, then the run, which hands the turn to its settlement (a turn in line runs once admitted). */
  async execute(asked: TurnRequest): Promise<TurnStream> {
    const admission = await this.admission.admit(asked);
    if (admission.kind === 'in-line') return this.inLine(admission.place);
    return admission.kind === 'answered' ? admission.stream : this.run(admission.turn);
  }

  /**
   * The admitted turn runs in the background (AgentTurn), every chunk going to its readers here and
   * to its feed (TurnRelay) while its lease is renewed; once it ran, TurnSettlement ends it. A turn
   * that never starts lets its thread go.
   */
  private async run(turn: AdmittedTurn): Promise<TurnStream> {
    const { request, turnId, continuing } = turn;
    const { hub, agent, feeds, lease, logger } = this.parts;
    const threadId = request.threadId;
    try {
      const live = hub.begin(threadId, turnId, continuing);
      const relay = new TurnRelay(feeds.chunks, turnId, logger, continuing ? chunksRebuilding(continuing) : []);
      let unhold: () => void;
      try {
        // A reader elsewhere rings the turn's signal as it begins to follow: the chunks go to the feed from then on.
        unhold = await lease.hold(threadId, turnId, live, turn.ahead, () => relay.followed());
      } catch (error) {
        // Never started: it must not hold this instance's side of the thread either.
        hub.finish(live);
        throw error;
      }
      const reader = live.read();
      const ran = agent.run({
        principal: request.principal,
        threadId,
        messages: turn.messages,
        continuing,
        ...defined({ credentials: request.credentials }),
        signal: live.abort.signal,
        stop: live.stopping.signal,
        owner: turn.owner,
        fresh: turn.messages.length === 1 && request.message !== undefined && !request.rewind,
        ...defined({ recalled: turn.recalled }),
        emit: (chunk: UiChunk) => {
          live.push(chunk);
          relay.push(chunk);
        },
      });
      const { slot, added, latest, firstAnswer } = turn;
      const settled = { principal: request.principal, threadId, turnId, live, relay, unhold, slot, added, latest, firstAnswer };
      void this.settlement.settle({ ...settled, continuing: continuing !== null, owner: turn.owner, messages: turn.messages }, ran);
      return reader;
    } catch (error) {
      turn.ahead.drop();
      await this.settlement.letGo(threadId, turnId, turn.slot);
      throw error;
    }
  }

  /**
   * A turn waiting in the thread's line: the stream answers at once (keep-alives flow meanwhile)
   * and carries the turn once it is admitted. A reader who leaves first gives the place up.
   */
  private inLine(place: PlaceInLine): TurnStream {
    const left = new AbortController();
    const held: { running: TurnStream | null } = { running: null };
    return {
      threadId: place.threadId,
      chunks: this.onceAdmitted(place, left.signal, held),
      detach: () => {
        left.abort();
        held.running?.detach();
      },
    };
  }

  /** The stream of a turn waiting in line: nothing (but keep-alives) until its place comes, then the turn. */
  private async *onceAdmitted(place: PlaceInLine, left: AbortSignal, held: { running: TurnStream | null }): AsyncGenerator<UiChunk> {
    try {
      const admission = await place.admitted(left);
      if (!admission) return;
      held.running = admission.kind === 'answered' ? admission.stream : await this.run(admission.turn);
    } catch (error) {
      yield* failed(error);
      return;
    }
    yield* held.running.chunks;
  }
}

async function* failed(error: unknown): AsyncGenerator<UiChunk> {
  yield { type: 'error', errorText: error instanceof Error ? error.message : 'The turn could not start.' };
  yield { type: 'finish', finishReason: 'error' };
}
