import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { z } from 'zod';
import { ApprovalCard } from './approval-card.js';
import { describeError, wire, type ApprovalView } from './wire.js';
import { announceApprovalsChanged } from './page-events.js';

const actionAnswer = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ran'), output: z.unknown() }),
  z.object({ status: z.literal('parked'), approvalId: z.string(), toolCallId: z.string(), risk: z.string(), preview: z.string() }),
]);

/** What one run of a tool action came to, as the node that started it shows. */
type Outcome =
  | { readonly phase: 'running' }
  | { readonly phase: 'ran'; readonly output: unknown }
  | { readonly phase: 'parked'; readonly approvalId: string; readonly risk: string; readonly preview: string }
  | { readonly phase: 'denied' }
  | { readonly phase: 'failed'; readonly message: string };

interface Started {
  readonly action: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly outcome: Outcome;
}

/** The longest result shown in place; the rest is cut (the tool's whole answer is in the approval's outcome). */
const SHOWN_CHARS = 2000;

/**
 * An app's tool actions, run through the wire's guard. A call that needs the person's yes comes
 * back parked: the approval card is drawn where the action started, and once approved the same
 * call is sent again — the guard runs it exactly once — and its result takes the card's place.
 */
export function useToolActions(appId: string) {
  const [started, setStarted] = useState<Record<string, Started>>({});
  const base = `/apps/${encodeURIComponent(appId)}/actions`;

  const run = useCallback(
    async (action: string, tool: string, input: Record<string, unknown>, from: string) => {
      const show = (outcome: Outcome) => setStarted((current) => ({ ...current, [from]: { action, tool, input, outcome } }));
      show({ phase: 'running' });
      try {
        const answer = await wire('POST', `${base}/${encodeURIComponent(action)}`, { body: { input }, schema: actionAnswer });
        if (answer.status === 'parked') announceApprovalsChanged();
        show(
          answer.status === 'ran'
            ? { phase: 'ran', output: answer.output }
            : { phase: 'parked', approvalId: answer.approvalId, risk: answer.risk, preview: answer.preview },
        );
      } catch (caught) {
        show({ phase: 'failed', message: describeError(caught) });
      }
    },
    [base],
  );

  const outcome = useCallback(
    (nodeId: string): ReactNode => {
      const entry = started[nodeId];
      if (!entry) return null;
      const settle = (outcome: Outcome) => setStarted((current) => ({ ...current, [nodeId]: { ...entry, outcome } }));
      const retry = () => void run(entry.action, entry.tool, entry.input, nodeId);
      const settledElsewhere = (view: ApprovalView) => {
        if (view.state === 'approved') retry();
        else if (view.state === 'executed')
          settle(
            view.outcome?.ok === false
              ? { phase: 'failed', message: view.outcome.error ?? `${entry.tool} failed` }
              : { phase: 'ran', output: view.outcome?.output ?? null },
          );
        else if (view.state === 'denied') settle({ phase: 'denied' });
        else settle({ phase: 'failed', message: 'The approval expired before anyone answered it. Try again.' });
      };
      return (
        <ActionOutcome
          key={`${nodeId}:${entry.outcome.phase}`}
          tool={entry.tool}
          outcome={entry.outcome}
          onApproved={retry}
          onDenied={() => settle({ phase: 'denied' })}
          onSettledElsewhere={settledElsewhere}
        />
      );
    },
    [started, run],
  );

  return useMemo(() => ({ run, outcome }), [run, outcome]);
}

function ActionOutcome({
  tool,
  outcome,
  onApproved,
  onDenied,
  onSettledElsewhere,
}: {
  tool: string;
  outcome: Outcome;
  onApproved(): void;
  onDenied(): void;
  onSettledElsewhere(view: ApprovalView): void;
}) {
  switch (outcome.phase) {
    case 'running':
      return (
        <p className="app-action-outcome running" role="status" data-action-phase="running">
          Running <code>{tool}</code>…
        </p>
      );
    case 'ran':
      return (
        <div className="app-action-outcome ran" role="status" data-action-phase="ran">
          <span className="app-action-label">
            Ran <code>{tool}</code>
          </span>
          <pre className="app-action-output">{shown(outcome.output)}</pre>
        </div>
      );
    case 'parked':
      return (
        <div className="app-action-outcome parked" data-action-phase="parked">
          <ApprovalCard
            approvalId={outcome.approvalId}
            risk={outcome.risk}
            preview={outcome.preview}
            tool={tool}
            sessionName="app"
            onDecided={(_id, approved) => (approved ? onApproved() : onDenied())}
            onSettledElsewhere={onSettledElsewhere}
          />
        </div>
      );
    case 'denied':
      return (
        <p className="app-action-outcome denied" role="status" data-action-phase="denied">
          Denied: <code>{tool}</code> did not run.
        </p>
      );
    case 'failed':
      return (
        <p className="app-action-outcome failed" role="alert" data-action-phase="failed">
          {outcome.message}
        </p>
      );
  }
}

function shown(output: unknown): string {
  const text = typeof output === 'string' ? output : (JSON.stringify(output, null, 2) ?? String(output));
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}
