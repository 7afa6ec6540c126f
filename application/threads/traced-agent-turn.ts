import type { UiChunk } from '../../domain/threads/ui-chunk.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import { ATTR, type Telemetry } from '../../ports/telemetry.js';
import { AgentTurn, type AgentTurnDeps } from './agent-turn.js';
import type { TurnInput } from './turn-input.js';

/**
 * The agent loop inside a `porter.turn` span: its model steps (the AI SDK's `ai.*` spans), tool
 * calls and approved executions nest under it. It names the thread (or the run and its
 * automation), the subject as the telemetry option says, and how the turn finished; never what
 * was said.
 */
export class TracedAgentTurn extends AgentTurn {
  constructor(
    deps: AgentTurnDeps,
    private readonly telemetry: Telemetry,
  ) {
    super(deps);
  }

  override run(input: TurnInput): Promise<UiMessage> {
    const { scope } = input;
    return this.telemetry.span(
      'porter.turn',
      () => ({
        [ATTR.threadId]: scope ? undefined : input.threadId,
        [ATTR.runId]: scope?.runId,
        [ATTR.automationId]: scope?.automation?.automationId,
        [ATTR.venue]: scope?.venue ?? 'chat',
        [ATTR.presence]: scope?.presence ?? 'present',
        [ATTR.subject]: this.telemetry.subject(input.principal.subject),
      }),
      async (span) => {
        let finishReason: string | undefined;
        const message = await super.run({
          ...input,
          emit: (chunk: UiChunk) => {
            if (chunk.type === 'finish') finishReason = chunk.finishReason;
            input.emit(chunk);
          },
        });
        span.set({ [ATTR.finishReason]: finishReason });
        return message;
      },
    );
  }
}
