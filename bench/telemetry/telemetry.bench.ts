import { ProxyTracerProvider, context, propagation, trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { BenchResult } from '../support/harness.js';
import { microsFigure } from '../support/stream-bench.js';
import { sideBySide, startTurnPorter } from '../support/turn-porter.js';

const TOKENS = 500;
const ITERATIONS = 300;

/**
 * A turn over the wire (Koa, the guard, SQLite, SSE; a zero-latency model streaming 500 tokens)
 * with tracing on — Porter's spans and the AI SDK's `ai.*` spans recorded by the OpenTelemetry SDK
 * into an in-memory exporter — beside the same turn with tracing off: the API's no-op tracer, as
 * for a host without an SDK. One Porter, one process: the global provider switches between the
 * SDK's tracer and the no-op one turn by turn, alternating which goes first. Goal: time to last
 * byte within 1.05×, judged on the median of adjacent on/off pairs (the ratio of p50s is printed beside it).
 */
export async function run(): Promise<BenchResult[]> {
  const exporter = new InMemorySpanExporter();
  const sdk = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  // The SDK's context manager and propagator, then a provider that hands out the SDK's tracer or the no-op one.
  sdk.register();
  trace.disable();
  const switching = new SwitchingProvider(sdk);
  trace.setGlobalTracerProvider(switching);

  const porter = await startTurnPorter('porter-bench-telemetry-', TOKENS);
  let spansPerTurn = 0;
  try {
    const turn = async (on: boolean) => {
      switching.on = on;
      const timing = await porter.turn();
      // The turn's span ends just after its last byte: wait for it before the next turn switches the tracer.
      if (on) await settled(() => exporter.getFinishedSpans().some((s) => s.name === 'porter.turn'));
      if (on) spansPerTurn = exporter.getFinishedSpans().length;
      exporter.reset();
      return timing;
    };

    const { subject: traced, anchor: untraced } = await sideBySide(
      () => turn(true),
      () => turn(false),
      ITERATIONS,
    );
    const lastByte = (samples: typeof traced) => microsFigure(samples.map((s) => s.last));
    // Each traced turn ran right beside an untraced one: the median of those pairs' ratios cancels
    // the load the machine drifts through, which the ratio of the two p50s does not.
    const paired = median(traced.map((s, i) => s.last / untraced[i]!.last));
    const p50Ratio = lastByte(traced).p50Micros / lastByte(untraced).p50Micros;
    return [
      {
        name: `turn, ${TOKENS} tokens, tracing on (${spansPerTurn} spans, in-memory exporter): time to last byte`,
        subject: 'tracing on',
        figure: lastByte(traced),
        anchor: { name: 'tracing off (no-op tracer)', figure: lastByte(untraced) },
        goal: 1 / 1.05,
        measure: 'p50',
        absoluteGoal: {
          met: paired <= 1.05,
          text: `on/off: ${paired.toFixed(3)}× (median of ${traced.length} adjacent pairs), ${p50Ratio.toFixed(3)}× of p50s; goal ≤ 1.05×`,
        },
      },
    ];
  } finally {
    await porter.close();
    await sdk.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  }
}

/** The SDK's tracer while `on`, the API's no-op tracer otherwise, decided at each span. */
class SwitchingProvider implements TracerProvider {
  on = false;
  private readonly off = new ProxyTracerProvider();

  constructor(private readonly sdk: NodeTracerProvider) {}

  getTracer(name: string, version?: string): Tracer {
    const pick = () => (this.on ? this.sdk : this.off).getTracer(name, version);
    return {
      startSpan: (...args: Parameters<Tracer['startSpan']>) => pick().startSpan(...args),
      startActiveSpan: ((...args: unknown[]) =>
        (pick().startActiveSpan as (...a: unknown[]) => unknown)(...args)) as Tracer['startActiveSpan'],
    };
  }
}

/** Waits, a macrotask at a time, until `done` holds (the span that ends after the response's last byte). */
async function settled(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
