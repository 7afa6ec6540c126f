import { expect } from 'chai';
import type { Container } from 'inversify';
import type { GuardUseCases } from '../../ports/use-cases/guard.js';
import type { Principal } from '../../domain/principal.js';
import type { PolicyRule } from '../../domain/guard/policy.js';
import type { ApprovalPrimitives } from '../../domain/guard/approval.js';
import type { StoredGrant } from '../../domain/guard/grant.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { ActAsPreset } from '../../ports/act-as.js';
import type { HostApi } from '../../ports/host-api.js';
import type { Egress } from '../../ports/egress.js';
import type { AuditSink } from '../../ports/audit.js';
import type { Store } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { StoreAuditLog } from '../../adapters/audit/store-audit-log.js';
import { StaticToolRegistry } from '../../adapters/tools/static-tool-registry.js';
import { AuditTrail } from '../../application/audit/audit-trail.js';
import { ApprovalBook } from '../../application/guard/approval-book.js';
import { GrantBook } from '../../application/guard/grant-book.js';
import { ActAsSeam } from '../../application/guard/act-as-seam.js';
import { HostAccess } from '../../application/guard/host-access.js';
import { ToolRunner } from '../../application/guard/tool-runner.js';
import { ExecuteApproved } from '../../application/guard/execute-approved.js';
import { GuardCall, type GuardedCall } from '../../application/guard/guard-call.js';
import { DecideApproval, DecisionEffects } from '../../application/guard/decide-approval.js';
import { DecideApprovals } from '../../application/guard/decide-approvals.js';
import { GetApproval } from '../../application/guard/get-approval.js';
import { ListApprovals } from '../../application/guard/list-approvals.js';
import { ListGrants } from '../../application/guard/list-grants.js';
import { RevokeGrant } from '../../application/guard/revoke-grant.js';
import type { ApprovalHook } from '../../application/guard/approval-hooks.js';
import { EgressPreview } from '../../application/guard/egress-preview.js';
import { GuardedEgress } from '../../adapters/shared/egress/guarded-egress.js';
import { NoHostApi } from '../../adapters/host/no-host-api.js';
import { NoConnectionBroker } from '../../adapters/connections/no-connection-broker.js';
import { ConnectionGate } from '../../application/connections/connection-gate.js';
import { ConnectionBook } from '../../application/connections/connection-book.js';
import type { ConnectionPrimitives } from '../../domain/connections/connection.js';
import { get, TOKENS } from '../../composition/tokens.js';
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
  host?: HostApi | null;
  auditSink?: AuditSink;
  hooks?: ApprovalHook[];
  /** What tools reach out through; the strict egress guard on the system resolver when absent. */
  egress?: Egress;
  /** Default: a ManualClock at 2026-06-01T12:00Z. */
  clock?: Clock;
  /** The execution lease of approved calls (default: the composition's). */
  executionLeaseMs?: number;
}

/** The guard's application layer wired over the in-memory store, as the composition wires it. */
export function guardHarness(options: HarnessOptions) {
  const clock = (options.clock ?? new ManualClock('2026-06-01T12:00:00.000Z')) as ManualClock;
  const store = options.store ?? new MemoryStore({ clock });
  const ids = new SequentialIds();
  const logger = new RecordingLogger();
  const auditLog = new StoreAuditLog(store);
  const audit = new AuditTrail({ sink: options.auditSink ?? auditLog, ids, clock, logger });
  const tools = new StaticToolRegistry(options.tools);
  const approvals = new ApprovalBook(store.records<ApprovalPrimitives>('approvals'));
  const grants = new GrantBook(store.records<StoredGrant>('grants'));
  const seam = new ActAsSeam(options.actAs ?? null, audit, clock);
  const hostAccess = new HostAccess(options.host ?? new NoHostApi(), seam, audit);
  const egress = options.egress ?? new GuardedEgress();
  // No broker here: a tool that declares a connection fails as the deployment's 501 (connections-harness has one).
  const connections = new ConnectionGate(new NoConnectionBroker(), new ConnectionBook(store.records<ConnectionPrimitives>('connections')));
  const runner = new ToolRunner(hostAccess, connections, egress);
  const executeApproved = new ExecuteApproved({
    approvals,
    tools,
    runner,
    clock,
    audit,
    logger,
    settings: options.executionLeaseMs ? { leaseMs: options.executionLeaseMs } : undefined,
  });
  const settings = { policy: options.policy ?? [], approvalTtlMs: 60 * 60 * 1000 };
  const guard = new GuardCall({
    tools,
    approvals,
    grants,
    runner,
    executeApproved,
    settings,
    ids,
    clock,
    audit,
    egressPreview: new EgressPreview(egress),
  });
  const effects = new DecisionEffects(grants, options.hooks ?? [], ids, audit);
  return {
    clock,
    store,
    approvals,
    logger,
    auditLog,
    seam,
    hostAccess,
    egress,
    guard,
    executeApproved,
    decide: new DecideApproval(approvals, effects, clock),
    decideMany: new DecideApprovals(approvals, effects, clock, ids),
    list: new ListApprovals(approvals, clock),
    get: new GetApproval(approvals, clock),
    listGrants: new ListGrants(grants),
    revoke: new RevokeGrant(grants, clock, audit),
    call: chatCalls(guard),
  };
}

/**
 * The guard as guardHarness hands it out, read from a composition built by testContainer (over
 * `parts`' store, clock and logger): what the harnesses built from the modules spread.
 */
export function guardOf<P extends { clock: ManualClock; store: Store; logger: RecordingLogger }>(container: Container, parts: P) {
  const guard = get(container, TOKENS.GuardCall);
  const useCases = get(container, TOKENS.GuardUseCases);
  return {
    ...parts,
    approvals: get(container, TOKENS.ApprovalBook),
    auditLog: get(container, TOKENS.AuditSink),
    seam: get(container, TOKENS.ActAsSeam),
    hostAccess: get(container, TOKENS.HostAccess),
    egress: get(container, TOKENS.Egress),
    guard,
    executeApproved: get(container, TOKENS.ExecuteApproved),
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
