/**
 * What a span may carry: ids, names, counts and decisions. Never a secret, a token, a cookie or
 * message text (those only when the host opted into `recordContent`). An undefined value is left out.
 */
export type SpanAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** The open span a piece of work runs in: it may add what it learned on the way. */
export interface OpenSpan {
  /** False when nothing records (no SDK registered): attributes need not be worked out. */
  readonly recording: boolean;
  set(attributes: SpanAttributes): void;
}

export interface SpanOptions {
  /** `server` for work an outside caller asked for over HTTP (a door request, a webhook delivery). */
  readonly kind?: 'internal' | 'server';
  /**
   * Where the span belongs when it is not the active context: a W3C `traceparent` stored earlier
   * (an approved call's execution joins the trace of the turn that parked it). The active span,
   * if any, is linked.
   */
  readonly parent?: string | null;
}

/**
 * Traces. The core opens spans through this port and never names OpenTelemetry; the adapter
 * (`adapters/telemetry/`) is `@opentelemetry/api` alone, so with no SDK registered every span is a
 * no-op. Work runs inside its span: whatever it starts (the AI SDK's `ai.*` spans, calls to the
 * host) nests under it.
 */
export interface Telemetry {
  /**
   * Runs `work` in a new span, child of the active one (or of `options.parent`); it ends when
   * `work` settles, failed if it threw. Attributes given as a function are worked out only when
   * the span records.
   */
  span<T>(
    name: string,
    attributes: SpanAttributes | (() => SpanAttributes),
    work: (span: OpenSpan) => Promise<T>,
    options?: SpanOptions,
  ): Promise<T>;
  /** The active span's W3C `traceparent`, or null when none records. */
  traceparent(): string | null;
  /**
   * Runs `work` in the trace an incoming request carried (`traceparent`), unless a span is already
   * active (the host's own HTTP instrumentation made one).
   */
  continueFrom<T>(headers: Readonly<Record<string, string | string[] | undefined>>, work: () => T): T;
  /** Adds the active trace's propagation headers (`traceparent` at least) to an outgoing request. */
  inject(headers: Headers): void;
  /** How a principal's subject appears on spans: hashed (the default), left out, or as is. */
  subject(subject: string): string | undefined;
  /** Whether the host asked for prompts, answers and tool inputs to be recorded (off by default). */
  readonly recordsContent: boolean;
}

/** How a subject appears on spans. */
export type SubjectOnSpans = 'hash' | 'omit' | 'plain';

/** Attribute names, semantic-convention-like, in one place. */
export const ATTR = {
  subject: 'porter.subject',
  threadId: 'porter.thread.id',
  runId: 'porter.run.id',
  automationId: 'porter.automation.id',
  toolName: 'porter.tool.name',
  toolCallId: 'porter.tool_call.id',
  venue: 'porter.venue',
  presence: 'porter.presence',
  risk: 'porter.guard.risk',
  decision: 'porter.guard.decision',
  because: 'porter.guard.because',
  approvalId: 'porter.approval.id',
  approved: 'porter.approval.approved',
  finishReason: 'porter.turn.finish_reason',
  outcome: 'porter.outcome',
  webhookSource: 'porter.webhook.source',
  webhookVerified: 'porter.webhook.verified',
  webhookDeduplicated: 'porter.webhook.deduplicated',
  runsStarted: 'porter.runs.started',
  doorMethod: 'porter.door.method',
} as const;
