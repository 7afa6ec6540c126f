import { createHash, createHmac } from 'node:crypto';
import {
  context,
  propagation,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { OpenSpan, SpanAttributes, SpanOptions, SubjectOnSpans, Telemetry } from '../../ports/telemetry.js';
import { parseTraceparent, traceparentOf } from './traceparent.js';

/** The instrumentation scope Porter's spans (and the AI SDK's, which Porter hands this tracer) carry. */
export const TRACER_NAME = 'porter-runtime';

const HASHES_KEPT = 1000;

export interface OtelTelemetrySettings {
  /** How a subject appears: `hash` (default), `omit` or `plain`. */
  readonly subject: SubjectOnSpans;
  /** Record prompts, answers and tool inputs (the AI SDK's recordInputs/recordOutputs). Default false. */
  readonly recordContent: boolean;
  /** Keys the subject's hash (the deployment's secret), so a hash cannot be looked up from a list of emails. */
  readonly hashKey?: string;
  /** Tracer version (Porter's). */
  readonly version?: string;
}

/**
 * The Telemetry port over `@opentelemetry/api` alone. The host brings the SDK and the exporter;
 * without one the API's tracer is a no-op and so is every span (its attributes are not even
 * worked out). The tracer is looked up through the global provider at each span, so a provider
 * the host registers after createPorter is still used.
 */
export class OtelTelemetry implements Telemetry {
  readonly recordsContent: boolean;
  /** Subjects hashed lately: one HMAC per person, not per span. */
  private readonly hashes = new Map<string, string>();

  constructor(private readonly settings: OtelTelemetrySettings) {
    this.recordsContent = settings.recordContent;
  }

  /** The tracer the AI SDK is handed, so its `ai.*` spans carry Porter's scope and nest under Porter's. */
  get tracer(): Tracer {
    return trace.getTracer(TRACER_NAME, this.settings.version);
  }

  span<T>(
    name: string,
    attributes: SpanAttributes | (() => SpanAttributes),
    work: (span: OpenSpan) => Promise<T>,
    options: SpanOptions = {},
  ): Promise<T> {
    const active = context.active();
    const stored = options.parent ? parseTraceparent(options.parent) : null;
    // No provider registered and no trace to carry on: the span would be a no-op that no one sees,
    // so none is made (no tracer looked up, no span object, no context), nor a promise around the
    // work's own: a door call passes three of these.
    if (!stored && this.unobserved() && !trace.getSpanContext(active)) {
      try {
        // A native promise comes back as it is; anything else (a work that is not async) is wrapped.
        return Promise.resolve(work(UNRECORDED));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    return this.recorded(name, attributes, work, options, active, stored);
  }

  private async recorded<T>(
    name: string,
    attributes: SpanAttributes | (() => SpanAttributes),
    work: (span: OpenSpan) => Promise<T>,
    options: SpanOptions,
    active: Context,
    stored: ReturnType<typeof parseTraceparent>,
  ): Promise<T> {
    let parent: Context = active;
    const links: Link[] = [];
    if (stored) {
      parent = trace.setSpanContext(ROOT_CONTEXT, stored);
      const current = trace.getSpanContext(active);
      if (current && current.traceId !== stored.traceId) links.push({ context: current });
    }
    const span = this.tracer.startSpan(name, { kind: options.kind === 'server' ? SpanKind.SERVER : SpanKind.INTERNAL, links }, parent);
    const open = new Handle(span);
    if (span.isRecording()) open.set(typeof attributes === 'function' ? attributes() : attributes);
    else if (!trace.isSpanContextValid(span.spanContext())) {
      // Nobody records it and no trace runs through it (no SDK, no parent): its work needs no context of its own.
      try {
        return await work(open);
      } finally {
        span.end();
      }
    }
    try {
      return await context.with(trace.setSpan(parent, span), () => work(open));
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
      throw error;
    } finally {
      span.end();
    }
  }

  /**
   * False while no span made now would be seen: no provider registered and no trace to carry on
   * (the case `span` makes no span for). Callers with work of their own per span (the AI SDK's
   * telemetry on each model step) skip it then.
   */
  observed(): boolean {
    return !this.unobserved() || trace.getSpanContext(context.active()) !== undefined;
  }

  /**
   * True while no tracer provider is registered (the API's global is its own proxy, delegating to
   * nobody). Asked at each span, so a provider the host registers later is used from then on.
   */
  private unobserved(): boolean {
    const provider = trace.getTracerProvider();
    return provider instanceof ProxyTracerProvider && provider.getDelegateTracer(TRACER_NAME, this.settings.version) === undefined;
  }

  traceparent(): string | null {
    const spanContext = trace.getSpanContext(context.active());
    return spanContext && trace.isSpanContextValid(spanContext) ? traceparentOf(spanContext) : null;
  }

  subject(subject: string): string | undefined {
    switch (this.settings.subject) {
      case 'omit':
        return undefined;
      case 'plain':
        return subject;
      case 'hash': {
        const known = this.hashes.get(subject);
        if (known) return known;
        const digest = (this.settings.hashKey ? createHmac('sha256', this.settings.hashKey) : createHash('sha256'))
          .update(subject)
          .digest('hex')
          .slice(0, 32);
        if (this.hashes.size >= HASHES_KEPT) this.hashes.clear();
        this.hashes.set(subject, digest);
        return digest;
      }
    }
  }

  /**
   * Runs `work` in the trace an incoming request carried (`traceparent`, `tracestate`), unless a
   * span is already active (the host's HTTP instrumentation made one). The host's registered
   * propagator reads the headers first; without one, `traceparent` is still honoured.
   */
  continueFrom<T>(headers: Readonly<Record<string, string | string[] | undefined>>, work: () => T): T {
    const active = context.active();
    if (trace.getSpanContext(active)) return work();
    let extracted = propagation.extract(active, headers, headerGetter);
    if (!trace.getSpanContext(extracted)) {
      const stored = parseTraceparent(single(headers.traceparent));
      if (!stored) return work();
      extracted = trace.setSpanContext(extracted, stored);
    }
    return context.with(extracted, work);
  }

  /** Adds the active trace's headers to an outgoing call to the host: the registered propagator's, and `traceparent` at least. */
  inject(headers: Headers): void {
    const carrier: Record<string, string> = {};
    propagation.inject(context.active(), carrier);
    const traceparent = carrier.traceparent ?? this.traceparent();
    if (traceparent) carrier.traceparent = traceparent;
    for (const [name, value] of Object.entries(carrier)) headers.set(name, value);
  }
}

class Handle implements OpenSpan {
  constructor(private readonly span: Span) {}

  get recording(): boolean {
    return this.span.isRecording();
  }

  set(attributes: SpanAttributes): void {
    if (this.span.isRecording()) this.span.setAttributes(clean(attributes));
  }
}

/** The span handed to work no one records: nothing to set. */
const UNRECORDED: OpenSpan = { recording: false, set: () => undefined };

function clean(attributes: SpanAttributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const headerGetter = {
  keys: (carrier: Readonly<Record<string, string | string[] | undefined>>) => Object.keys(carrier),
  get: (carrier: Readonly<Record<string, string | string[] | undefined>>, key: string) => carrier[key.toLowerCase()],
};
