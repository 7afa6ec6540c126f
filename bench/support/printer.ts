import type { BenchResult, Figure } from './harness.js';

/** The subject's throughput as a share of its anchor's (for latency goals: anchor p50 / subject p50). */
export function ratio(result: BenchResult): number {
  if (result.measure === 'p50') return result.anchor.figure.p50Micros / result.figure.p50Micros;
  return result.figure.opsPerSecond / result.anchor.figure.opsPerSecond;
}

/** A table: each figure beside its anchor's, the ratio, and whether it meets its goal. */
export function formatResults(title: string, results: readonly BenchResult[]): string {
  const rows = results.map((result) => {
    const r = ratio(result);
    return [
      result.name,
      `${result.subject} ${figure(result.figure)}`,
      `${result.anchor.name} ${figure(result.anchor.figure)}`,
      `${r.toFixed(2)}×`,
      result.absoluteGoal
        ? `${result.absoluteGoal.met ? 'ok' : 'MISSED'} (${result.absoluteGoal.text})`
        : `${r >= result.goal ? 'ok' : 'BELOW'} (goal ≥ ${Number(result.goal.toFixed(2))}×${result.measure === 'p50' ? ' of anchor p50' : ''})`,
    ];
  });
  const header = ['operation', 'measured: ops/s  p50  p99', 'anchor: ops/s  p50  p99', 'ratio', 'goal'];
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  │  ');
  return [`\n${title}`, line(header), widths.map((width) => '─'.repeat(width)).join('──┼──'), ...rows.map(line)].join('\n');
}

function figure(f: Figure): string {
  return `${Math.round(f.opsPerSecond).toLocaleString('en-US').padStart(7)}  ${micros(f.p50Micros)}  ${micros(f.p99Micros)}`;
}

function micros(value: number): string {
  return (value >= 1000 ? `${(value / 1000).toFixed(2)}ms` : `${Math.round(value)}µs`).padStart(7);
}
