import { RISKS, type Risk } from '../../domain/guard/risk.js';
import { isToolPart, toolNameOf, type UiMessage } from '../../domain/threads/ui-message.js';
import type { PreviewedCall } from '../../ports/use-cases/runs.js';

/** The calls a dry run previewed instead of running, read off its transcript (the guard's `{dryRun: true, executed: false}` outputs). */
export function dryRunPreviews(messages: ReadonlyArray<UiMessage>): PreviewedCall[] {
  const previews: PreviewedCall[] = [];
  for (const message of messages) {
    for (const part of message.parts) {
      if (!isToolPart(part) || part.state !== 'output-available') continue;
      const output = part.output as { dryRun?: unknown; executed?: unknown; preview?: unknown; risk?: unknown; egress?: unknown } | null;
      if (output?.dryRun !== true || output.executed !== false || typeof output.preview !== 'string') continue;
      previews.push({
        toolCallId: part.toolCallId,
        tool: toolNameOf(part),
        risk: RISKS.includes(output.risk as Risk) ? (output.risk as Risk) : 'write',
        egress: output.egress === true,
        preview: output.preview,
      });
    }
  }
  return previews;
}
