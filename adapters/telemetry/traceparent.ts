import { TraceFlags, type SpanContext } from '@opentelemetry/api';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * A W3C Trace Context `traceparent` read as a remote span context, or null when it is absent or
 * malformed (version ff, all-zero ids, or a version-00 header with anything after the flags).
 */
export function parseTraceparent(header: string | null | undefined): SpanContext | null {
  if (!header) return null;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return null;
  const [, version, traceId, spanId, flags, rest] = match;
  if (version === 'ff' || (version === '00' && rest)) return null;
  if (/^0+$/.test(traceId!) || /^0+$/.test(spanId!)) return null;
  return { traceId: traceId!, spanId: spanId!, traceFlags: parseInt(flags!, 16) & TraceFlags.SAMPLED, isRemote: true };
}

/** The `traceparent` naming a span context. */
export function traceparentOf(spanContext: SpanContext): string {
  return `00-${spanContext.traceId}-${spanContext.spanId}-0${(spanContext.traceFlags & TraceFlags.SAMPLED).toString(16)}`;
}
