import type { AppDocument } from '../../domain/apps/app-document.js';
import type { PinDrift } from '../../domain/apps/fork-pin.js';
import { failedView, viewOfDocument, viewOfDraft, type AppView } from '../../domain/apps/app-view.js';
import { classifyEdit, emitsServerCode } from '../../domain/apps/edit-rule.js';
import { AppGenerationFailed, TreeEditEmittedServerCode } from '../../domain/apps/app-errors.js';
import { DomainError } from '../../domain/errors.js';
import { validateDocument } from '../../domain/apps/validate-document.js';
import type { AppGenerator, TokenSpend } from '../../ports/app-generator.js';
import type { Payer } from '../../domain/usage/payer.js';
import type { ViewSink } from '../../ports/use-cases/apps.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { Logger } from '../../ports/logger.js';
import type { UsageMeter } from '../usage/usage-meter.js';
import { NO_SLOT, type TurnSlot, type TurnSlots } from '../usage/turn-slots.js';
import type { AppBook } from './app-book.js';
import { defined } from '../../domain/defined.js';

/** What a generation is paid with: the person's budgets and the bound on their turns in flight. */
export interface GenerationPayment {
  readonly meter: UsageMeter;
  readonly slots: TurnSlots;
}

/** What the use cases that generate a version (create, edit) are built from alike. */
export interface GeneratingDeps {
  readonly book: AppBook;
  readonly generation: Generation;
  readonly ids: Ids;
  readonly clock: Clock;
}

/**
 * Runs the generator for one app and keeps the person's view of it current: each draft that adds
 * a node (or a title) becomes a view update under the app's one part id; the finished document
 * is checked before anyone may store it, and a failure leaves the last view marked failed. What
 * the model answered that is no app (no JSON, a document breaking the rules) or the call to the
 * model failing is AppGenerationFailed: the model's failure, never the caller's 400 or a 500.
 *
 * The person pays as for a turn (`payment`; `NoUsageMeter` and `NoTurnSlots`: nothing is metered nor bounded): whoever asks
 * for a new version reserves it first (`reserve`: a place among their turns in flight and one of
 * their `appGenerations`), each model call starts only while a token is left, and the tokens each
 * step spent are counted as it ends.
 */
export class Generation {
  /** A deployment without a model gives the null generator, which answers NotImplemented. */
  constructor(
    private readonly generator: AppGenerator,
    private readonly logger: Logger,
    private readonly payment: GenerationPayment,
  ) {}

  /**
   * What a new version costs before the model is asked: a place among the payer's turns in flight
   * (`holdId` names it; none when the agent loop asking holds one already, `withinTurn`), so
   * parallel generations are bounded like parallel turns, then one of their `appGenerations`.
   * Refused (429) when no place, no generation or no token is left: a refused generation spends
   * and holds nothing. The answer lets the place go once the generation is over.
   */
  async reserve(payer: Payer, holdId: string, withinTurn = false): Promise<TurnSlot> {
    const place = withinTurn ? NO_SLOT : await this.payment.slots.take(payer, holdId);
    try {
      await this.payment.meter.ensureLeft(payer, 'tokens');
      await this.payment.meter.charge(payer, 'appGenerations');
      return place;
    } catch (error) {
      await place.release();
      throw error;
    }
  }

  async create(payer: Payer, appId: string, prompt: string, signal: AbortSignal, sink?: ViewSink): Promise<AppDocument> {
    const generator = this.generator;
    const spend = await this.tokensFor(payer);
    const watch = new Watch(appId, this.logger, sink);
    const draft = await watch.follow(() => generator.create({ prompt, signal, spend }), signal);
    const document = watch.check(draft);
    return { ...document, ui: 'tree' };
  }

  /**
   * One edit. The rung (`ui`) and the audience (`scope`) never change here, and an instruction
   * classified as a tree edit must not come back with server code or a new egress policy: server
   * code fails closed before anything is stored, the policy is kept as it was.
   */
  async edit(
    payer: Payer,
    appId: string,
    document: AppDocument,
    instruction: string,
    signal: AbortSignal,
    sink?: ViewSink,
  ): Promise<AppDocument> {
    const generator = this.generator;
    const kind = classifyEdit(instruction);
    const spend = await this.tokensFor(payer);
    const watch = new Watch(appId, this.logger, sink);
    const draft = await watch.follow(() => generator.edit({ document, instruction, kind, signal, spend }), signal);
    // The rung and the audience are not an edit's to change; a tree edit keeps the egress policy too.
    const checked = watch.check(draft);
    const next: AppDocument = {
      ...checked,
      ui: document.ui,
      scope: document.scope,
      ...defined({ egress: kind === 'tree' ? document.egress : undefined }),
    };
    if (kind === 'tree' && emitsServerCode(document, next)) throw watch.fail(new TreeEditEmittedServerCode());
    return next;
  }

  /** Refuses a model call when the payer has no token left; else how its steps' tokens are counted. */
  private async tokensFor(payer: Payer): Promise<TokenSpend> {
    await this.payment.meter.ensureLeft(payer, 'tokens');
    return async (tokens) => {
      await this.payment.meter.record(payer, 'tokens', tokens);
    };
  }

  /** The finished view, sent once the change is stored (with the fork's drift, if it drifted). */
  static ready(appId: string, document: AppDocument, sink?: ViewSink, pinDrift: PinDrift | null = null): void {
    sink?.(viewOfDocument(appId, document, pinDrift));
  }

  /** A failure after generation (storing, serving): the view says so. */
  static failed(appId: string, document: AppDocument, message: string, sink?: ViewSink): void {
    sink?.(failedView(viewOfDocument(appId, document), message));
  }
}

class Watch {
  private last: AppView;
  private shape = '';
  private shownNodes = 0;

  constructor(
    private readonly appId: string,
    private readonly logger: Logger,
    private readonly sink?: ViewSink,
  ) {
    this.last = viewOfDraft(appId, null);
  }

  async follow(run: () => AsyncIterable<unknown>, signal: AbortSignal): Promise<unknown> {
    let draft: unknown = null;
    try {
      for await (const next of run()) {
        draft = next;
        if (this.sink) this.show(next);
      }
    } catch (error) {
      throw this.fail(this.failureOf(error, signal));
    }
    return draft;
  }

  check(draft: unknown): AppDocument {
    const checked = validateDocument(draft);
    if (!checked.ok) throw this.fail(new AppGenerationFailed('its answer is not a valid app document', checked.issues));
    return checked.document;
  }

  /**
   * A failure we know (no model configured, a budget, the generator's own AppGenerationFailed) or
   * a caller who went away stays as it is; anything else is the call to the model failing, whose
   * own words (a provider's error) go to the log, not to the person.
   */
  private failureOf(error: unknown, signal: AbortSignal): Error {
    if (error instanceof DomainError) return error;
    if (signal.aborted) return error instanceof Error ? error : new Error(String(error));
    this.logger.warn('app generation failed: the call to the model failed', {
      appId: this.appId,
      cause: error instanceof Error ? error.message : String(error),
    });
    return new AppGenerationFailed('the call to it failed');
  }

  fail<E extends Error>(error: E): E {
    this.sink?.(failedView(this.last, error.message));
    return error;
  }

  /**
   * Only drafts that change what is drawn (a title, a root, new nodes) become updates, and past a
   * few nodes only growth by an eighth does: a 2,000-node app streams tens of updates, not 2,000
   * copies of itself.
   */
  private show(draft: unknown): void {
    const source = typeof draft === 'object' && draft !== null ? (draft as Record<string, unknown>) : {};
    const nodes = typeof source.nodes === 'object' && source.nodes !== null ? Object.keys(source.nodes).length : 0;
    const shape = `${String(source.title)}|${String(source.root)}`;
    if (shape === this.shape && nodes - this.shownNodes < Math.max(1, Math.floor(this.shownNodes / 8))) return;
    this.shape = shape;
    this.shownNodes = nodes;
    this.last = viewOfDraft(this.appId, draft);
    this.sink!(this.last);
  }
}
