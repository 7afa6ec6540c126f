import { useState } from 'react';
import { NAME } from './chrome-config.js';
import { z } from 'zod';
import { EmptyState, NoticeBanner, PageFrame, type Notice } from './page.js';
import { useSession } from './session.js';
import { dateTime, relativeTime } from './time.js';
import { useLoad } from './use-load.js';
import { deleteWithUndo, useUndone } from './undo.js';
import { describeError, wire } from './wire.js';
import { usePageEvent } from './page-events.js';

const grant = z.object({
  id: z.string(),
  tool: z.string(),
  scope: z.enum(['tool', 'exact']),
  duration: z.enum(['session', 'standing']),
  session: z.string().nullable(),
  appliesTo: z.union([
    z.object({ kind: z.literal('anywhere') }),
    z.object({ kind: z.literal('automation'), automationId: z.string(), name: z.string().optional() }),
  ]),
  createdAt: z.string(),
});
type Grant = z.output<typeof grant>;
const grantList = z.object({ grants: z.array(grant), nextCursor: z.string().nullable().optional() });

/** The standing yeses: every grant of this person's, by tool, with what it covers; revoke any of them. */
export function GrantsPage() {
  const { epoch } = useSession();
  const list = useLoad((signal) => wire('GET', '/grants?limit=100', { schema: grantList, signal }), [epoch]);
  usePageEvent('approvals-changed', list.reload);
  useUndone('grant', list.reload);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const byTool = new Map<string, Grant[]>();
  for (const g of list.data?.grants ?? []) byTool.set(g.tool, [...(byTool.get(g.tool) ?? []), g]);
  const tools = [...byTool.keys()].sort();

  const revoke = async (g: Grant) => {
    setRevoking(g.id);
    setNotice(null);
    try {
      await deleteWithUndo('grant', g.id);
      setNotice({ tone: 'info', text: `Revoked: ${g.tool} will ask again.` });
    } catch (caught) {
      setNotice({ tone: 'error', text: describeError(caught) });
    } finally {
      setRevoking(null);
      list.reload();
    }
  };

  return (
    <PageFrame
      title="Grants"
      lede={`What ${NAME} may do without asking, because you said so when you approved. Revoke one and that tool asks again.`}
    >
      <NoticeBanner notice={notice} />
      {list.error && !list.data ? (
        <EmptyState title="Grants could not be loaded" text={describeError(list.error)} onRetry={list.reload} />
      ) : null}
      {!list.data && !list.error ? <div className="skeleton-card" aria-label="Loading" /> : null}
      {list.data && tools.length === 0 ? (
        <EmptyState
          title="No grants"
          text="When you approve a request and choose to remember the answer, it shows up here, and you can take it back at any time."
        />
      ) : null}
      {tools.map((tool) => (
        <section key={tool} className="grant-group" aria-labelledby={`grants-${tool}`} data-tool={tool}>
          <h2 className="section-heading" id={`grants-${tool}`}>
            <code>{tool}</code>
          </h2>
          <ul className="card-list">
            {byTool.get(tool)!.map((g) => (
              <li key={g.id} className="card card-row grant" data-grant-id={g.id}>
                <div>
                  <div className="card-title">{reachOf(g)}</div>
                  <div className="card-meta">
                    <span className="badge">{g.scope === 'tool' ? 'Any input' : 'Exactly this input'}</span>
                    <span className="badge">{g.duration === 'standing' ? 'Always' : 'This session'}</span>
                    {g.appliesTo.kind === 'automation' ? (
                      <span className="badge warn" data-applies-to="automation">
                        Only when {g.appliesTo.name ? `“${g.appliesTo.name}”` : 'its automation'} runs
                      </span>
                    ) : (
                      <span className="badge" data-applies-to="anywhere">
                        Anywhere
                      </span>
                    )}
                    <span title={dateTime(g.createdAt)}>Granted {relativeTime(g.createdAt)}</span>
                  </div>
                </div>
                <button
                  type="button"
                  className="button small secondary"
                  disabled={revoking === g.id}
                  onClick={() => void revoke(g)}
                  aria-label={`Revoke ${g.tool}: ${reachOf(g)}`}
                >
                  {revoking === g.id ? 'Revoking…' : 'Revoke'}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </PageFrame>
  );
}

/** What one grant lets through, in a sentence. */
function reachOf(g: Grant): string {
  const what = g.scope === 'tool' ? `Use ${g.tool} with any input` : `Repeat one exact ${g.tool} call`;
  if (g.duration === 'standing') return `${what}, from now on`;
  if (g.session?.startsWith('thr_')) return `${what} in one conversation`;
  if (g.session?.startsWith('app_')) return `${what} in one app`;
  return `${what} for one session`;
}
