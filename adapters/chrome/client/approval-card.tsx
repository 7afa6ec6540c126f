import { useEffect, useId, useRef, useState } from 'react';
import { NAME } from './chrome-config.js';
import { approvalView, describeError, wire, type ApprovalState, type ApprovalView, type Remember } from './wire.js';
import { RiskBadge } from './risk-badge.js';
import { announceApprovalsChanged } from './page-events.js';
import { InlineError } from './page.js';
import { defined } from '../../../domain/defined.js';

/** How long between looks at an undecided approval, to notice a decision made elsewhere. */
const POLL_MS = 2500;

const REMEMBER_CHOICES: ReadonlyArray<{ value: string; label: string; remember?: Remember }> = [
  { value: 'once', label: 'Only this time' },
  { value: 'tool-session', label: 'Allow this tool for this conversation', remember: { scope: 'tool', duration: 'session' } },
  { value: 'exact-standing', label: 'Always allow exactly this', remember: { scope: 'exact', duration: 'standing' } },
  { value: 'tool-standing', label: 'Always allow this tool', remember: { scope: 'tool', duration: 'standing' } },
];

export interface ApprovalCardProps {
  readonly approvalId: string;
  readonly risk: string;
  readonly preview: string;
  readonly tool: string;
  readonly egress?: boolean | undefined;
  /** Offer to remember the answer (grants); off for asks that are themselves a standing grant. */
  readonly rememberable?: boolean;
  /** What a session-long grant spans where this card is shown (a conversation, an app). */
  readonly sessionName?: string;
  /** Called after this person decided here (the chat then continues the turn). */
  onDecided?(approvalId: string, approved: boolean): void;
  /** Called when polling finds the approval decided somewhere else. */
  onSettledElsewhere?(view: ApprovalView): void;
  /** Called once the card shows a decision (here or elsewhere): the call's own status follows it. */
  onVerdict?(state: ApprovalState): void;
}

/**
 * A parked call waiting for a person: what it will do, its risk, approve / deny, and whether to
 * remember the answer. While undecided it polls the approval, so a decision made in another tab,
 * device or the approvals page shows here too.
 */
export function ApprovalCard({
  approvalId,
  risk,
  preview,
  tool,
  egress,
  rememberable = true,
  sessionName = 'conversation',
  onDecided,
  onSettledElsewhere,
  onVerdict,
}: ApprovalCardProps) {
  const [state, setState] = useState<ApprovalState>('pending');
  const [by, setBy] = useState<'here' | 'elsewhere' | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [choice, setChoice] = useState('once');
  const choices = REMEMBER_CHOICES.map((c) =>
    c.value === 'tool-session' ? { ...c, label: `Allow this tool for this ${sessionName}` } : c,
  );
  const rememberId = useId();
  const decidedHere = useRef(false);
  const reported = useRef(false);
  const settled = useRef<HTMLDivElement>(null);

  const verdictTo = useRef(onVerdict);
  verdictTo.current = onVerdict;
  useEffect(() => {
    if (state !== 'pending') verdictTo.current?.(state);
  }, [state]);

  // Decided here, the buttons that had focus are gone: focus moves to the verdict that replaced them.
  useEffect(() => {
    if (by === 'here') settled.current?.focus();
  }, [by]);

  useEffect(() => {
    if (state !== 'pending') return;
    let stopped = false;
    const look = async () => {
      try {
        const view = await wire('GET', `/approvals/${encodeURIComponent(approvalId)}`, { schema: approvalView });
        if (stopped || decidedHere.current || view.state === 'pending') return;
        setState(view.state);
        setBy('elsewhere');
        announceApprovalsChanged();
        if (!reported.current) {
          reported.current = true;
          onSettledElsewhere?.(view);
        }
      } catch {
        // A missed look is retried on the next tick; the card stays as it was.
      }
    };
    void look();
    const timer = window.setInterval(() => document.visibilityState === 'visible' && void look(), POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [approvalId, state, onSettledElsewhere]);

  const decide = async (approve: boolean) => {
    setBusy(true);
    setError(null);
    decidedHere.current = true;
    const remember = approve && rememberable ? choices.find((c) => c.value === choice)?.remember : undefined;
    try {
      const view = await wire('POST', `/approvals/${encodeURIComponent(approvalId)}/decide`, {
        body: { approve, ...defined({ remember }) },
        schema: approvalView,
      });
      setState(view.state === 'pending' ? (approve ? 'approved' : 'denied') : view.state);
      setBy('here');
      announceApprovalsChanged();
      onDecided?.(approvalId, approve);
    } catch (caught) {
      decidedHere.current = false;
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  if (state !== 'pending') {
    return (
      <div className="approval-card settled" data-approval-state={state} role="status" tabIndex={-1} ref={settled}>
        <span className={`approval-verdict ${state}`} data-decided={by ?? undefined}>
          {VERDICT[state]}
        </span>
        <span className="approval-preview-inline">{preview}</span>
      </div>
    );
  }

  return (
    <section className="approval-card" data-approval-state="pending" aria-label={`Approval needed: ${preview}`} tabIndex={-1}>
      <header className="approval-head">
        <RiskBadge risk={risk} egress={egress} />
        <span className="approval-ask">
          {NAME} wants to use <code>{tool}</code>
        </span>
      </header>
      <p className="approval-preview">{preview}</p>
      <div className="approval-actions">
        {rememberable ? (
          <label className="approval-remember" htmlFor={rememberId}>
            <span className="visually-hidden">Remember this answer</span>
            <select id={rememberId} value={choice} onChange={(event) => setChoice(event.target.value)} disabled={busy}>
              {choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span />
        )}
        <div className="approval-buttons">
          <button type="button" className="button secondary" onClick={() => void decide(false)} disabled={busy}>
            Deny
          </button>
          <button
            type="button"
            className={`button ${risk === 'destructive' ? 'danger' : 'primary'}`}
            onClick={() => void decide(true)}
            disabled={busy}
          >
            {busy ? 'Approving…' : 'Approve'}
          </button>
        </div>
      </div>
      <InlineError error={error} />
    </section>
  );
}

/** What the card's header says of each state. */
const VERDICT: Readonly<Record<ApprovalState, string>> = {
  pending: 'Waiting',
  approved: 'Approved',
  executed: 'Approved · ran',
  denied: 'Denied',
  expired: 'Expired',
};
