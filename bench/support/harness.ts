/**
 * A small timing harness: each operation is measured beside an anchor (the floor it is compared
 * with), alternating the two in short slices so load on the machine (other processes, the
 * database's own background work) falls on both alike rather than on whichever ran at that moment.
 */

/** One operation, given how many times it ran before, so it can rotate through ids. */
export type Operation = (iteration: number) => Promise<unknown>;

/** What one side of a comparison did. */
export interface Figure {
  readonly opsPerSecond: number;
  readonly p50Micros: number;
  readonly p99Micros: number;
  readonly operations: number;
}

/** One measured operation beside its anchor. */
export interface BenchResult {
  /** e.g. "sqlite get-by-id". */
  readonly name: string;
  /** What was measured, e.g. "MikroOrmStore". */
  readonly subject: string;
  readonly figure: Figure;
  readonly anchor: { readonly name: string; readonly figure: Figure };
  /** The lowest acceptable subject/anchor ratio (throughput, or anchor p50 / subject p50 for latency goals). */
  readonly goal: number;
  /** What the goal is about: throughput (default) or p50 latency. */
  readonly measure?: 'throughput' | 'p50';
  /**
   * For a goal that is not a ratio to the anchor — a budget ("one tick under 2 s") or a count
   * ("0 duplicates, 0 misses") — whether this run met it and how it reads. The printer shows it in
   * the goal column instead of judging the ratio; the anchor is still printed beside the figure.
   */
  readonly absoluteGoal?: { readonly met: boolean; readonly text: string };
}

/** Times one operation (a tick over 10,000 automations, a race of instances) as a figure. */
export async function timeOnce<T>(run: () => Promise<T>): Promise<{ figure: Figure; value: T }> {
  const started = process.hrtime.bigint();
  const value = await run();
  const micros = Number(process.hrtime.bigint() - started) / 1_000;
  return { figure: { opsPerSecond: 1e6 / micros, p50Micros: micros, p99Micros: micros, operations: 1 }, value };
}

export interface Comparison {
  readonly name: string;
  readonly subject: { readonly name: string; readonly run: Operation };
  readonly anchor: { readonly name: string; readonly run: Operation };
  /** Timed operations per side. */
  readonly iterations: number;
  /** Untimed operations per side first (JIT, prepared statements, caches). Default a tenth of iterations, at least 50. */
  readonly warmup?: number;
  /** Operations per side before switching to the other side. Default 20. */
  readonly slice?: number;
  readonly goal: number;
  /** Judge by p50 latency instead of throughput (for operations a person waits on). */
  readonly measure?: 'throughput' | 'p50';
}

/** Runs both sides, warm-up first, then alternating slices; operations run one at a time. */
export async function compare(comparison: Comparison): Promise<BenchResult> {
  const slice = comparison.slice ?? 20;
  const warmup = comparison.warmup ?? Math.max(50, Math.floor(comparison.iterations / 10));
  const subject = new Side(comparison.subject.run);
  const anchor = new Side(comparison.anchor.run);
  await subject.warm(warmup);
  await anchor.warm(warmup);
  const rounds = Math.ceil(comparison.iterations / slice);
  for (let round = 0; round < rounds; round++) {
    // Swap who goes first each round, so neither always runs right after the other's work.
    const [first, second] = round % 2 === 0 ? [subject, anchor] : [anchor, subject];
    await first.time(slice);
    await second.time(slice);
  }
  return {
    name: comparison.name,
    subject: comparison.subject.name,
    figure: subject.figure(),
    anchor: { name: comparison.anchor.name, figure: anchor.figure() },
    goal: comparison.goal,
    ...(comparison.measure ? { measure: comparison.measure } : {}),
  };
}

class Side {
  private iteration = 0;
  private readonly latencies: number[] = [];
  private totalNanos = 0n;

  constructor(private readonly run: Operation) {}

  async warm(count: number): Promise<void> {
    for (let i = 0; i < count; i++) await this.run(this.iteration++);
  }

  async time(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const started = process.hrtime.bigint();
      await this.run(this.iteration++);
      const took = process.hrtime.bigint() - started;
      this.totalNanos += took;
      this.latencies.push(Number(took) / 1_000);
    }
  }

  figure(): Figure {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return {
      opsPerSecond: sorted.length / (Number(this.totalNanos) / 1e9),
      p50Micros: percentile(sorted, 0.5),
      p99Micros: percentile(sorted, 0.99),
      operations: sorted.length,
    };
  }
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** Compares at p50 and judges by what the subject adds to its anchor: met when that is under `budgetMs`. */
export async function compareAddedP50({ budgetMs, ...comparison }: AddedP50Comparison): Promise<BenchResult> {
  const result = await compare({ ...comparison, goal: 0, measure: 'p50' });
  const added = (result.figure.p50Micros - result.anchor.figure.p50Micros) / 1000;
  return { ...result, absoluteGoal: { met: added < budgetMs, text: `added p50 ${added.toFixed(3)} ms; goal < ${budgetMs} ms` } };
}

export interface AddedP50Comparison extends Omit<Comparison, 'goal' | 'measure'> {
  /** What the subject may add to the anchor's p50, in milliseconds. */
  readonly budgetMs: number;
}
