import type { Ids } from '../../ports/ids.js';
import type { ToolRegistry } from '../../ports/tool-registry.js';
import type { UseCase } from '../../ports/use-case.js';
import type { DoorTask, DoorTaskRef, DoorToolCall, DoorToolResult } from '../../ports/use-cases/door.js';
import { RUN_AUTOMATION_TOOL } from '../automations/automation-tools.js';
import type { GuardCall } from '../guard/guard-call.js';
import type { CallResult } from '../guard/call-result.js';
import { LimitReached } from '../../domain/errors.js';
import { defined } from '../../domain/defined.js';

/**
 * `tools/call` through the door. The call goes through the guard as the connected person (venue
 * `mcp`, present), in the door session, carrying the consent evidence so grants remembered through
 * this client cover it; host calls then run through the act-as seam, never with the inbound bearer.
 * An identical call retried in the session reuses its parked approval, and one that names the
 * approval it answers (`continues`) reads its outcome once a racing retry ran it. Without consent evidence
 * there is nothing to key grants to, so the call fails closed. Over a breaker or the person's
 * `toolCalls` budget the call is refused as rate limited, saying when to retry: an outside agent
 * retries on its own, and parking each retry would ask the person once per call.
 */
export class CallDoorTool implements UseCase<DoorToolCall, DoorToolResult> {
  constructor(
    private readonly tools: ToolRegistry,
    private readonly guard: GuardCall,
    private readonly ids: Ids,
    /** Reads back the run `porter_automations_run` started, as the task a client may follow. */
    private readonly tasks?: UseCase<DoorTaskRef, DoorTask | null>,
  ) {}

  async execute(call: DoorToolCall): Promise<DoorToolResult> {
    if (!this.tools.get(call.tool)) return { kind: 'unknown-tool' };
    if (!call.caller.evidence) {
      return {
        kind: 'failed',
        code: 'not-implemented',
        error:
          'This connection carries no consent evidence (the token names no client), so the door cannot act for you: reconnect through an authorization that records consent',
      };
    }
    let result: CallResult;
    try {
      result = await this.guard.execute({
        tool: call.tool,
        input: call.input,
        toolCallId: this.ids.mint('toolCall'),
        principal: call.caller.principal,
        venue: 'mcp',
        presence: 'present',
        session: call.session,
        evidence: call.caller.evidence,
        reuseParked: true,
        ...defined({ continues: call.continues || undefined }),
        overBreaker: 'refuse',
        signal: call.signal,
      });
    } catch (error) {
      // Over a breaker or the person's toolCalls budget: the client is told which and when it frees.
      if (!(error instanceof LimitReached)) throw error;
      return { kind: 'rate-limited', budget: error.budget, retryAfterSeconds: error.retryAfterSeconds, error: error.message };
    }
    switch (result.status) {
      case 'ran': {
        const task = await this.startedTask(call, result.output);
        return { kind: 'ran', output: result.output, ...defined({ task: task || undefined }) };
      }
      case 'parked':
        return { kind: 'parked', ...result.parked };
      case 'failed':
        return {
          kind: 'failed',
          error: result.error,
          ...defined({ code: result.code || undefined, reason: result.reason || undefined }),
        };
      case 'blocked':
        return { kind: 'blocked', reason: result.reason };
      case 'invalid':
        return { kind: 'invalid', issues: result.issues };
    }
  }

  /** The run a `porter_automations_run` call started, read back from the store: it is kept before the call answers. */
  private async startedTask(call: DoorToolCall, output: unknown): Promise<DoorTask | null> {
    if (call.tool !== RUN_AUTOMATION_TOOL || !this.tasks) return null;
    const runId = (output as { runId?: unknown } | null)?.runId;
    return typeof runId === 'string' ? this.tasks.execute({ caller: call.caller, taskId: runId }) : null;
  }
}
