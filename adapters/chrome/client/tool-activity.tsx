import { useState, type ReactNode } from 'react';
import { ApprovalCard } from './approval-card.js';
import type { ApprovalState, ApprovalView } from './wire.js';
import { Icon } from './icon.js';
import { defined } from '../../../domain/defined.js';

/** What the chrome knows of one tool call, merged from its part and any later result. */
export interface ToolCallView {
  readonly toolCallId: string;
  readonly tool: string;
  readonly state: string;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly errorText?: string | undefined;
  /** From `data-porter-approval`: the parked call's card. */
  readonly approval?: { approvalId: string; risk: string; preview: string; egress?: boolean } | undefined;
}

const STATUS: Record<string, { label: string; tone: 'busy' | 'ask' | 'ok' | 'bad' | 'muted' }> = {
  'input-streaming': { label: 'Preparing…', tone: 'busy' },
  'input-available': { label: 'Running…', tone: 'busy' },
  'approval-requested': { label: 'Needs your approval', tone: 'ask' },
  'approval-responded': { label: 'Answered · waiting to run', tone: 'busy' },
  'output-available': { label: 'Done', tone: 'ok' },
  'output-error': { label: 'Failed', tone: 'bad' },
  'output-denied': { label: 'Denied · not run', tone: 'muted' },
};

/** A parked call's status once its card shows the decision, before the turn runs it (or not). */
const DECIDED: Readonly<Record<ApprovalState, { label: string; tone: 'busy' | 'ask' | 'ok' | 'bad' | 'muted' } | undefined>> = {
  pending: undefined,
  approved: { label: 'Approved · waiting to run', tone: 'busy' },
  executed: { label: 'Approved · ran', tone: 'ok' },
  denied: { label: 'Denied · not run', tone: 'muted' },
  expired: { label: 'Expired · not run', tone: 'muted' },
};

const PREVIEW_LIMIT = 4000;

export interface ToolActivityProps {
  readonly call: ToolCallView;
  /** True while the turn that would run it is still streaming. */
  readonly live: boolean;
  onDecided?(approvalId: string, approved: boolean): void;
  onSettledElsewhere?(view: ApprovalView): void;
  /** What the call reports while it runs (its progress parts). */
  readonly children?: ReactNode;
}

/** One tool call in a conversation: name, status, and (on demand) its input and result. */
export function ToolActivity({ call, live, onDecided, onSettledElsewhere, children }: ToolActivityProps) {
  const [open, setOpen] = useState(false);
  // The decision its card shows (made here or anywhere else): the status never says "Needs your
  // approval" above a verdict.
  const [verdict, setVerdict] = useState<ApprovalState | null>(null);
  const parked = call.state === 'approval-requested' || call.state === 'approval-responded';
  const decided = parked && verdict ? DECIDED[verdict] : undefined;
  const status = decided ?? STATUS[call.state] ?? { label: call.state, tone: 'muted' as const };
  const stalled = !live && (call.state === 'input-available' || call.state === 'input-streaming');
  const shown = stalled ? { label: 'Stopped', tone: 'muted' as const } : status;
  const bodyId = `tool-${call.toolCallId}`;

  return (
    <div
      className="tool"
      data-tool={call.tool}
      data-state={call.state}
      data-approval={call.approval?.approvalId}
      data-verdict={decided ? (verdict ?? undefined) : undefined}
    >
      <button type="button" className="tool-head" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
        <span className={`tool-dot ${shown.tone}`} aria-hidden="true" />
        <code className="tool-name">{call.tool}</code>
        <span className={`tool-status ${shown.tone}`}>{shown.label}</span>
        <Icon className="chevron" d="M9 6l6 6-6 6" />
      </button>
      {children}
      {open ? (
        <div className="tool-body" id={bodyId}>
          {call.input !== undefined ? <Json label="Input" value={call.input} /> : null}
          {call.state === 'output-available' ? <Json label="Result" value={call.output} /> : null}
          {call.errorText ? (
            <div className="tool-section">
              <div className="tool-label">Error</div>
              <p className="tool-error">{call.errorText}</p>
            </div>
          ) : null}
        </div>
      ) : null}
      {call.approval && parked ? (
        <ApprovalCard
          onVerdict={setVerdict}
          approvalId={call.approval.approvalId}
          risk={call.approval.risk}
          preview={call.approval.preview}
          egress={call.approval.egress}
          tool={call.tool}
          {...defined({ onDecided })}
          {...defined({ onSettledElsewhere })}
        />
      ) : null}
    </div>
  );
}

function Json({ label, value }: { label: string; value: unknown }) {
  const [all, setAll] = useState(false);
  const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
  const long = text.length > PREVIEW_LIMIT;
  return (
    <div className="tool-section">
      <div className="tool-label">{label}</div>
      <pre className="tool-json">{long && !all ? `${text.slice(0, PREVIEW_LIMIT)}…` : text}</pre>
      {long ? (
        <button type="button" className="link-button" onClick={() => setAll(!all)}>
          {all ? 'Show less' : `Show all (${text.length.toLocaleString()} characters)`}
        </button>
      ) : null}
    </div>
  );
}
