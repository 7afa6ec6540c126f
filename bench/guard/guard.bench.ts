import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../adapters/store/open-store.js';
import { SystemClock } from '../../adapters/runtime/system-clock.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import { ada, guardHarness, parkedId } from '../../test/support/guard-harness.js';
import { compare, type BenchResult } from '../support/harness.js';

/**
 * The guard's added latency: a write tool called through GuardCall with a matching standing grant
 * (risk resolved, input checked, grants read from SQLite, decision, context built) beside calling
 * the same tool directly. Goal: under 1 ms added at p50.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'porter-bench-guard-'));
  const store = await openStore(`sqlite:${join(dir, 'porter.db')}`, { clock: new SystemClock() });
  try {
    const tool: ToolDefinition = {
      name: 'notes_add',
      description: 'adds a note',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      risk: 'write',
      execute: async (input) => ({ added: (input as { text: string }).text }),
    };
    const h = guardHarness({ tools: [tool], store });
    const id = parkedId(await h.call('notes_add', { text: 'first' }));
    await h.decide.execute({ principal: ada, approvalId: id, approve: true, remember: { scope: 'tool', duration: 'standing' } });
    const signal = new AbortController().signal;
    const context = {
      principal: ada,
      venue: 'chat' as const,
      presence: 'present' as const,
      toolCallId: 'c',
      session: 's',
      signal,
      abortSignal: signal,
      messages: [] as [],
      context: undefined,
      hostFetch: () => Promise.reject(new Error('unused')),
      fetch: () => Promise.reject(new Error('unused')),
    };

    const result = await compare({
      name: 'guarded call, standing grant (sqlite)',
      subject: {
        name: 'GuardCall',
        run: async (i) => {
          const outcome = await h.guard.execute({
            tool: 'notes_add',
            input: { text: `n${i}` },
            toolCallId: `c${i}`,
            principal: ada,
            venue: 'chat',
            presence: 'present',
            session: 's',
            signal,
          });
          if (outcome.status !== 'ran') throw new Error(`expected the grant to let it run, got ${outcome.status}`);
        },
      },
      anchor: { name: 'tool.execute', run: (i) => tool.execute({ text: `n${i}` }, context) },
      iterations: 5_000,
      goal: 0,
      measure: 'p50',
    });
    const addedMicros = result.figure.p50Micros - result.anchor.figure.p50Micros;
    const addedP99 = result.figure.p99Micros - result.anchor.figure.p99Micros;
    return [
      {
        ...result,
        absoluteGoal: {
          met: addedMicros < 1_000,
          text: `added p50 ${(addedMicros / 1000).toFixed(3)} ms, p99 ${(addedP99 / 1000).toFixed(3)} ms; goal < 1 ms p50`,
        },
      },
    ];
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
