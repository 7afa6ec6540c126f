/**
 * `npm start` with OTEL_EXPORTER_OTLP_ENDPOINT set: Porter's traces (and the AI SDK's, which nest
 * under them) go to an OTLP collector over HTTP, e.g. Jaeger's all-in-one on :4318. This is the
 * development host's only: the OpenTelemetry SDK and exporters are devDependencies, and this file
 * is left out of the published package (tsconfig.build.json); a host in production registers its
 * own SDK and Porter uses it through `@opentelemetry/api`.
 *
 * Honoured, as the OpenTelemetry specification names them: OTEL_EXPORTER_OTLP_ENDPOINT (its
 * `/v1/traces`) or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (as is), OTEL_EXPORTER_OTLP_PROTOCOL or
 * OTEL_EXPORTER_OTLP_TRACES_PROTOCOL (`http/protobuf`, the default, or `http/json`),
 * OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME (default `porter-dev`), OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_BSP_SCHEDULE_DELAY (ms) and OTEL_SDK_DISABLED.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';

export interface OtlpExport {
  /** Where spans go, and how. */
  readonly url: string;
  readonly protocol: 'http/protobuf' | 'http/json';
  /** Sends what is still batched, then unregisters the provider. */
  shutdown(): Promise<void>;
}

/** Registers a tracer provider exporting OTLP over HTTP, or answers null when no endpoint is set. */
export function startOtlpExport(env: NodeJS.ProcessEnv): OtlpExport | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const url = tracesUrl(env);
  if (!url) return null;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported by the development host; use http/protobuf or http/json`);
  const headers = keyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? env.OTEL_EXPORTER_OTLP_HEADERS);
  const exporter = protocol === 'http/json' ? new JsonExporter({ url, headers }) : new ProtobufExporter({ url, headers });
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      ...keyValues(env.OTEL_RESOURCE_ATTRIBUTES),
      'service.name': env.OTEL_SERVICE_NAME?.trim() || keyValues(env.OTEL_RESOURCE_ATTRIBUTES)['service.name'] || 'porter-dev',
    }),
    spanProcessors: [new BatchSpanProcessor(exporter, Number.isFinite(delay) && delay >= 0 ? { scheduledDelayMillis: delay } : {})],
  });
  // Also the W3C propagator and the AsyncLocalStorage context manager, so spans nest across awaits.
  provider.register();
  return {
    url,
    protocol,
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

function tracesUrl(env: NodeJS.ProcessEnv): string | null {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return null;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** `key1=value1,key2=value2`, values percent-decoded (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES). */
function keyValues(list: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const item of (list ?? '').split(',')) {
    const at = item.indexOf('=');
    if (at <= 0) continue;
    try {
      pairs[decodeURIComponent(item.slice(0, at).trim())] = decodeURIComponent(item.slice(at + 1).trim());
    } catch {
      // A malformed pair is skipped, as the specification allows.
    }
  }
  return pairs;
}
