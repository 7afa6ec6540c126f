import { expect } from 'chai';
import type { Container } from 'inversify';
import type { GuardUseCases } from '../../ports/use-cases/guard.js';
import type { Principal } from '../../domain/principal.js';
import type { PolicyRule } from '../../domain/guard/policy.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { ActAsPreset } from '../../ports/act-as.js';
import type { Egress } from '../../ports/egress.js';
import type { AuditSink } from '../../ports/audit.js';
import type { Store } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import type { ApprovalHook } from '../../application/guard/approval-hooks.js';
import type { GuardCall, GuardedCall } from '../../application/guard/guard-call.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { StoreAuditLog } from '../../adapters/audit/store-audit-log.js';
import { StaticToolRegistry } from '../../adapters/tools/static-tool-registry.js';
import type { PorterOptions } from '../../composition/config/porter-options.js';
import { testContainer } from '../../composition/containers/test-container.js';
import { get, TOKENS } from '../../composition/tokens.js';
import { GUARD_TOKENS } from '../../composition/modules/guard-tokens.js';
import { ManualClock } from './manual-clock.js';
import { RecordingLogger, SequentialIds } from './fakes.js';

export const ada: Principal = { subject: 'ada', kind: 'user' };
export const bob: Principal = { subject: 'bob', kind: 'user' };

/** A tool that counts its executions, optionally waiting on a gate before it finishes. */
export function countingTool(name: string, risk: ToolDefinition['risk'], options: { egress?: boolean; gate?: Promise<void> } = {}) {
  const calls: unknown[] = [];
  const tool: ToolDefinition = {
    name,
    description: `${name} for tests`,
    inputSchema: { type: 'object', additionalProperties: true },
    risk,
    ...(options.egress ? { egress: true } : {}),
    async execute(input) {
      calls.push(input);
      await options.gate;
      return { done: name, input };
    },
  };
  return { tool, calls };
}

export interface HarnessOptions {
  tools: ToolDefinition[];
  policy?: PolicyRule[];
  store?: Store;
  actAs?: ActAsPreset | null;
  /** The host's API (`baseUrl`) that tools reach with the person's credentials; absent, none. */
  baseUrl?: string;
  /** Where the audit trail writes (reads stay on the store's log). */
  auditSink?: AuditSink;
  hooks?: ApprovalHook[];
  /** What tools reach out through; the strict egress guard on the system resolver when absent. */
  egress?: Egress;
  /** Default: a ManualClock at 2026-06-01T12:00Z. */
  clock?: Clock;
  /** The execution lease of approved calls (default: the composition's). */
  executionLeaseMs?: number;
}

/**
 * The guard's application layer over the in-memory store: the production modules (testContainer),
 * with the test's tools, ids, hooks and the pieces it names in place of theirs.
 */
export function guardHarness(options: HarnessOptions) {
  const clock = (options.clock ?? new ManualClock('2026-06-01T12:00:00.000Z')) as ManualClock;
  const store = options.store ?? new MemoryStore({ clock });
  const logger = new RecordingLogger();
  const config: PorterOptions = {
    apps: false,
    automations: false,
    memory: false,
    knowledge: false,
    // The harness's approvals last an hour; its calls meet no breaker (those are the usage tests').
    approvalTtlSeconds: 60 * 60,
    breakers: false,
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.actAs ? { actAs: options.actAs } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  };
  const container = testContainer({ options: config, store, clock, logger }, ({ replace, add }) => {
    replace(TOKENS.Ids, new SequentialIds());
    replace(GUARD_TOKENS.ToolRegistry, new StaticToolRegistry(options.tools));
    if (options.egress) replace(GUARD_TOKENS.Egress, options.egress);
    const sink = options.auditSink;
    if (sink) replace(TOKENS.AuditSink, Object.assign(new StoreAuditLog(store), { write: sink.write.bind(sink) }));
    if (options.executionLeaseMs) replace(GUARD_TOKENS.ExecutionSettings, { leaseMs: options.executionLeaseMs });
    for (const hook of options.hooks ?? []) add(TOKENS.ApprovalHooks, hook);
  });
  return { ...guardOf(container, { clock, store, logger }), auditLog: new StoreAuditLog(store) };
}

/**
 * The guard as guardHarness hands it out, read from a composition built by testContainer (over
 * `parts`' store, clock and logger): what the harnesses built from the modules spread.
 */
export function guardOf<P extends { clock: ManualClock; store: Store; logger: RecordingLogger }>(container: Container, parts: P) {
  const guard = get(container, GUARD_TOKENS.GuardCall);
  const useCases = get(container, GUARD_TOKENS.GuardUseCases);
  return {
    ...parts,
    approvals: get(container, GUARD_TOKENS.ApprovalBook),
    auditLog: get(container, TOKENS.AuditSink),
    seam: get(container, GUARD_TOKENS.ActAsSeam),
    hostAccess: get(container, GUARD_TOKENS.HostAccess),
    egress: get(container, GUARD_TOKENS.Egress),
    guard,
    executeApproved: get(container, GUARD_TOKENS.ExecuteApproved),
    decide: useCases.decideApproval,
    decideMany: useCases.decideApprovals,
    list: useCases.listApprovals,
    get: useCases.getApproval,
    listGrants: useCases.listGrants,
    revoke: useCases.revokeGrant,
    call: chatCalls(guard),
  };
}

/** A chat call by ada unless told otherwise, each with its own tool-call id. */
function chatCalls(guard: GuardCall) {
  let callCounter = 0;
  return (tool: string, input: unknown, overrides: Partial<GuardedCall> = {}) => {
    callCounter += 1;
    return guard.execute({
      tool,
      input,
      toolCallId: `call_${callCounter}`,
      principal: ada,
      venue: 'chat',
      presence: 'present',
      session: 'thr_session1',
      threadId: 'thr_session1',
      signal: new AbortController().signal,
      ...overrides,
    });
  };
}

/** Expects Ada to hold exactly one grant, and that grant to include `expected`. */
export async function expectAdasOnlyGrant(
  h: { listGrants: GuardUseCases['listGrants'] },
  expected: Record<string, unknown>,
): Promise<void> {
  const { grants } = await h.listGrants.execute({ principal: ada });
  expect(grants).to.have.length(1);
  expect(grants[0]).to.deep.include(expected);
}

export function parkedId(result: Awaited<ReturnType<GuardCall['execute']>>): string {
  if (result.status !== 'parked') throw new Error(`expected the call to park, it ${result.status}`);
  return result.parked.approvalId;
}
