/**
 * An executor process for crash tests: `node --import tsx test/support/approval-executor.ts
 * <databaseUrl> <leaseMs>`. It parks ada's call of `slow_write` (a tool that never finishes) on
 * that database, approves it, executes it with the given execution lease, prints
 * `executing <approvalId>` once the tool runs, and then works until it is killed.
 */
import { openStore } from '../../adapters/store/open-store.js';
import { SystemClock } from '../../adapters/runtime/system-clock.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import { ada, guardHarness, parkedId } from './guard-harness.js';

const [databaseUrl, lease] = process.argv.slice(2);
if (!databaseUrl || !lease) throw new Error('usage: approval-executor.ts <databaseUrl> <leaseMs>');

let started: (approvalId: string) => void = () => undefined;
const slowWrite: ToolDefinition = {
  name: 'slow_write',
  description: 'A write that takes longer than any lease',
  inputSchema: { type: 'object', additionalProperties: true },
  risk: 'write',
  execute: (_input, context) =>
    new Promise(() => {
      started(context.toolCallId);
    }),
};

const clock = new SystemClock();
const store = await openStore(databaseUrl, { clock });
const h = guardHarness({ tools: [slowWrite], store, clock, executionLeaseMs: Number(lease) });
const approvalId = parkedId(await h.call('slow_write', { text: 'never finishes' }));
await h.decide.execute({ principal: ada, approvalId, approve: true });
started = () => process.stdout.write(`executing ${approvalId}\n`);
void h.executeApproved.execute({ approvalId, principal: ada, signal: new AbortController().signal });
// The heartbeat's timer is unref'd (a call never keeps a process alive by itself): this one keeps
// the process alive until the test kills it.
setInterval(() => undefined, 60_000);
