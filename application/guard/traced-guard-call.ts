import { ATTR, type SpanAttributes, type Telemetry } from '../../ports/telemetry.js';
import type { CallResult } from './call-result.js';
import { GuardCall, type GuardCallDeps, type GuardedCall } from './guard-call.js';
import { defined } from '../../domain/defined.js';

/** Longest tool input put on a span, when the host opted into recording content. */
const CONTENT_CAP = 2_000;

/**
 * The guard inside a `porter.tool_call` span: the tool, where the call came from, and the guard's
 * decision (its risk, the grant or policy that let it run, or that it was parked or blocked). The
 * call's input is recorded only when the host opted into content.
 */
export class TracedGuardCall extends GuardCall {
  constructor(
    private readonly telemetry: Telemetry,
    deps: GuardCallDeps,
  ) {
    super(deps);
  }

  override execute(call: GuardedCall): Promise<CallResult> {
    return this.telemetry.span(
      'porter.tool_call',
      () => ({
        [ATTR.toolName]: call.tool,
        [ATTR.toolCallId]: call.toolCallId,
        [ATTR.venue]: call.venue,
        [ATTR.presence]: call.presence,
        [ATTR.threadId]: call.threadId,
        [ATTR.runId]: call.runId,
        [ATTR.automationId]: call.automation?.automationId,
        [ATTR.subject]: this.telemetry.subject(call.principal.subject),
        ...defined({ 'porter.tool.input': this.telemetry.recordsContent ? capped(call.input) : undefined }),
      }),
      async (span) => {
        const result = await super.execute(call);
        if (span.recording) span.set(decisionOf(result, this.deps.tools.get(call.tool)?.risk));
        return result;
      },
    );
  }
}

function decisionOf(result: CallResult, declaredRisk: string | undefined): SpanAttributes {
  switch (result.status) {
    case 'ran':
      return { [ATTR.decision]: 'run', [ATTR.because]: result.because, [ATTR.risk]: declaredRisk, [ATTR.outcome]: 'ok' };
    case 'failed':
      return { [ATTR.decision]: 'run', [ATTR.risk]: declaredRisk, [ATTR.outcome]: 'failed' };
    case 'parked':
      return { [ATTR.decision]: 'parked', [ATTR.risk]: result.parked.risk, [ATTR.approvalId]: result.parked.approvalId };
    case 'blocked':
      return { [ATTR.decision]: 'blocked', [ATTR.because]: 'policy', [ATTR.risk]: declaredRisk };
    case 'invalid':
      return { [ATTR.decision]: 'invalid' };
  }
}

function capped(input: unknown): string {
  const json = JSON.stringify(input ?? null);
  return json.length > CONTENT_CAP ? `${json.slice(0, CONTENT_CAP)}…` : json;
}
