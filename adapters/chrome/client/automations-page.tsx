import { useState } from 'react';
import { AutomationCard } from './automation-card.js';
import { AutomationForm } from './automation-form.js';
import { AutomationRuns } from './automation-runs.js';
import { automationList, runList, type SavedAutomation } from './automation-shapes.js';
import { NAME } from './chrome-config.js';
import { copyText } from './clipboard.js';
import { EmptyState, NoticeBanner, PageFrame } from './page.js';
import { hrefOf } from './route.js';
import { useSession } from './session.js';
import { useUndone } from './undo.js';
import { useAutomationActions } from './use-automation-actions.js';
import { useLoad } from './use-load.js';
import { WireError, describeError, wire } from './wire.js';

/** Automations (a schedule or a webhook, and a task), arming and disarming, and their runs. */
export function AutomationsPage() {
  const { epoch } = useSession();
  const list = useLoad((signal) => wire('GET', '/automations', { schema: automationList, signal }), [epoch], 10_000);
  useUndone('automation', list.reload);
  const runs = useLoad((signal) => wire('GET', '/runs', { schema: runList, signal }), [epoch], 3000);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const actions = useAutomationActions(() => {
    list.reload();
    runs.reload();
  });
  const { notice, setNotice } = actions;
  const off = list.error instanceof WireError && list.error.code === 'not-found';

  /** A saved automation: said, its completion-webhook secret shown once when one was minted, the list read again. */
  const saved = (a: SavedAutomation, text: string) => {
    setNotice({ tone: 'info', text });
    if (a.notifySecret) setSecret({ name: a.name, value: a.notifySecret });
    list.reload();
  };

  const automations = list.data?.automations ?? [];
  const names = new Map(automations.map((a) => [a.id, a.name]));

  return (
    <PageFrame
      title="Automations"
      lede={`${NAME} works while you are away: on a schedule or when a webhook arrives, with only the permissions you granted ahead of time.`}
      actions={
        off ? null : (
          <button type="button" className="button small primary" onClick={() => setCreating(!creating)} aria-expanded={creating}>
            {creating ? 'Close' : 'New automation'}
          </button>
        )
      }
    >
      {off ? <EmptyState title="Automations are turned off" text="This deployment does not include automations." /> : null}
      <NoticeBanner notice={notice}>
        {notice?.approvals ? <a href={hrefOf({ name: 'approvals' })}>Answer in Approvals</a> : null}
      </NoticeBanner>
      {secret ? (
        <div className="banner warn secret-once" role="status" data-notify-secret>
          <span>
            Completion webhooks of “{secret.name}” are signed with this secret. Copy it now: it is not shown again.{' '}
            <code>{secret.value}</code>
          </span>
          <span className="banner-actions">
            <button type="button" className="button small secondary" onClick={() => void copyText(secret.value)}>
              Copy
            </button>
            <button type="button" className="button small secondary" onClick={() => setSecret(null)}>
              Done
            </button>
          </span>
        </div>
      ) : null}
      {creating ? (
        <AutomationForm
          onSaved={(a) => {
            setCreating(false);
            saved(a, `“${a.name}” was created. Arm it to let it run, or try it first with a dry run.`);
          }}
        />
      ) : null}
      {list.error && !off ? (
        <EmptyState title="Automations could not be loaded" text={describeError(list.error)} onRetry={list.reload} />
      ) : null}
      {!list.data && !list.error ? <div className="skeleton-card" aria-label="Loading" /> : null}
      {list.data && automations.length === 0 && !creating ? (
        <EmptyState
          title="No automations yet"
          text={`Create one to have ${NAME} do something every morning, or whenever a webhook arrives.`}
        />
      ) : null}
      <ul className="card-list">
        {automations.map((a) => (
          <AutomationCard
            key={a.id}
            automation={a}
            actions={{
              trying: actions.trying,
              editing: editing === a.id,
              runNow: (it) => void actions.runNow(it),
              dryRun: (it) => void actions.dryRun(it),
              arm: (it) => void actions.arm(it),
              disarm: (it) => void actions.disarm(it),
              remove: (it) => void actions.remove(it),
              toggleEdit: (it) => setEditing(editing === it.id ? null : it.id),
            }}
            editor={
              editing === a.id ? (
                <AutomationForm
                  existing={a}
                  onSaved={(it) => {
                    setEditing(null);
                    saved(it, `“${it.name}” was saved.`);
                  }}
                />
              ) : null
            }
          />
        ))}
      </ul>
      {!off ? <AutomationRuns runs={runs.data?.runs} names={names} onStop={(r) => void actions.stop(r)} /> : null}
    </PageFrame>
  );
}
