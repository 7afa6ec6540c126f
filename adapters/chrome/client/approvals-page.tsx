import { useEffect, useRef, useState } from 'react';
import { NAME } from './chrome-config.js';
import { ApprovalCard } from './approval-card.js';
import { hrefOf } from './route.js';
import { useSession } from './session.js';
import { useLoad } from './use-load.js';
import { approvalPage, describeError, wire } from './wire.js';
import { EmptyState, PageFrame } from './page.js';
import { announceApprovalsChanged, usePageEvent } from './page-events.js';

/** Everything waiting for this person's answer: chats, automations, apps, the MCP door. */
export function ApprovalsPage() {
  const { epoch } = useSession();
  const list = useLoad((signal) => wire('GET', '/approvals', { schema: approvalPage, signal }), [epoch], 5000);
  usePageEvent('approvals-changed', list.reload);
  const [batchError, setBatchError] = useState<string | null>(null);
  const approvals = list.data?.approvals ?? [];

  // A decided card leaves the list, and the focus it held with it: on to the next one waiting, or
  // the page once none is.
  const shown = useRef(0);
  useEffect(() => {
    const before = shown.current;
    shown.current = approvals.length;
    const at = document.activeElement;
    if (approvals.length >= before || (at && at !== document.body && at.isConnected)) return;
    (document.querySelector<HTMLElement>('#main .card-list .approval-card') ?? document.getElementById('main'))?.focus();
  }, [approvals.length]);

  const decideAll = async (approve: boolean) => {
    setBatchError(null);
    try {
      await wire('POST', '/approvals/decide', { body: { ids: approvals.map((a) => a.id), approve } });
    } catch (caught) {
      setBatchError(describeError(caught));
    }
    announceApprovalsChanged();
  };

  return (
    <PageFrame
      title="Approvals"
      lede={`${NAME} asks before it changes something, deletes something or reaches outside. Answer here or in the conversation.`}
      actions={
        approvals.length > 1 ? (
          <button type="button" className="button small secondary" onClick={() => void decideAll(false)}>
            Deny all
          </button>
        ) : null
      }
    >
      {batchError ? (
        <p className="banner error" role="alert">
          {batchError}
        </p>
      ) : null}
      {list.data === undefined && list.error ? (
        <EmptyState title="Approvals could not be loaded" text={describeError(list.error)} onRetry={list.reload} />
      ) : null}
      {list.data === undefined && !list.error ? <div className="skeleton-card" aria-label="Loading" /> : null}
      {list.data && approvals.length === 0 ? (
        <EmptyState title="Nothing is waiting for you" text={`When ${NAME} needs your yes or no, it shows up here.`} />
      ) : null}
      <ul className="card-list">
        {approvals.map((approval) => (
          <li key={approval.id} className="card">
            <div className="card-meta">
              {approval.request?.threadId ? (
                <a href={hrefOf({ name: 'thread', threadId: approval.request.threadId })}>From a conversation</a>
              ) : approval.request?.runId ? (
                <span>From an automation run</span>
              ) : approval.request?.automationId ? (
                <span>From an automation</span>
              ) : approval.request?.venue ? (
                <span>From {approval.request.venue}</span>
              ) : null}
              {approval.request?.appliesTo?.kind === 'automation' && !approval.request.runId ? (
                <span className="applies-to" data-applies-to="automation">
                  Applies only when {automationName(approval.request.appliesTo)} runs
                </span>
              ) : null}
            </div>
            {approval.request ? (
              <ApprovalCard
                approvalId={approval.id}
                risk={approval.request.risk}
                preview={approval.request.preview}
                tool={approval.request.tool}
                egress={approval.request.egress}
                rememberable={approval.request.venue === 'chat'}
              />
            ) : (
              <p className="muted">Running now…</p>
            )}
          </li>
        ))}
      </ul>
    </PageFrame>
  );
}

/** How an automation is named on a card: its name in quotes, or that it has none on record. */
function automationName(reach: { name?: string | undefined }): string {
  return reach.name ? `“${reach.name}”` : 'this automation';
}
