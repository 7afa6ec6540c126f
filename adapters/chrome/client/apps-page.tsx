import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { connectServedApp } from '../../client/served-app-bridge.js';
import { announceApprovalsChanged } from './page-events.js';
import { NAME } from './chrome-config.js';
import { z } from 'zod';
import { viewOfDocument } from '../../../domain/apps/app-view.js';
import type { AppDocument } from '../../../domain/apps/app-document.js';
import { AppRenderer } from './app-renderer.js';
import { useAppRuntime } from './app-runtime.js';
import { EmptyState, InlineError, NoticeBanner, OpenFailed, PageFrame, type Notice } from './page.js';
import { hrefOf, navigate } from './route.js';
import { useSession } from './session.js';
import { relativeTime } from './time.js';
import { useLoad } from './use-load.js';
import { deleteWithUndo, useUndone } from './undo.js';
import { WIRE, WireError, describeError, wire } from './wire.js';

const appSummary = z.object({
  id: z.string(),
  title: z.string(),
  ui: z.enum(['tree', 'http']),
  slot: z.string().nullable().optional(),
  drifted: z.boolean().optional(),
  versionNumber: z.number().optional(),
  updatedAt: z.string(),
});
const appList = z.object({ apps: z.array(appSummary), nextCursor: z.string().nullable().optional() });
const pinDrift = z.object({ slot: z.string(), baselineHash: z.string(), currentHash: z.string() });
const openPayload = z.object({
  kind: z.enum(['tree', 'http', 'resuming', 'stopped']),
  payload: z
    .object({
      appId: z.string(),
      version: z.string(),
      document: z.object({ title: z.string(), ui: z.enum(['tree', 'http']), root: z.string() }).passthrough(),
    })
    .optional(),
  /** A served app's own page, through the wire (`/apps/<id>/view/`). */
  url: z.string().optional(),
  pinDrift: pinDrift.nullable(),
  /** Its sandbox stopped its server for crossing a limit: why, and when it may start again. */
  stopped: z.object({ limit: z.string(), message: z.string(), retryAt: z.string() }).optional(),
});
const versionList = z.object({
  versions: z.array(z.object({ number: z.number(), change: z.string(), createdAt: z.string(), instruction: z.string().optional() })),
});
const editResult = z.object({ driftedPins: z.array(pinDrift).optional(), issues: z.array(z.string()).optional() });

/** Apps this person made or forked, newest first. */
export function AppsPage() {
  const { epoch } = useSession();
  const apps = useLoad((signal) => wire('GET', '/apps', { schema: appList, signal }), [epoch]);
  useUndone('app', apps.reload);
  const off = apps.error instanceof WireError && apps.error.code === 'not-found';
  return (
    <PageFrame
      title="Apps"
      lede={`Small apps ${NAME} built for you. Describe one here, or ask for it in a conversation (“build me an app to track my reading”).`}
    >
      {!off ? <NewApp /> : null}
      {off ? <EmptyState title="Apps are turned off" text="This deployment does not include generated apps." /> : null}
      {apps.error && !off ? <EmptyState title="Apps could not be loaded" text={describeError(apps.error)} onRetry={apps.reload} /> : null}
      {!apps.data && !apps.error ? <div className="skeleton-card" aria-label="Loading" /> : null}
      {apps.data && apps.data.apps.length === 0 ? (
        <EmptyState title="No apps yet" text="Describe the app you want above, and it is built for you in a few moments." />
      ) : null}
      <ul className="card-list grid">
        {apps.data?.apps.map((app) => (
          <li key={app.id} className="card" data-app-id={app.id}>
            <a className="card-link" href={hrefOf({ name: 'app', appId: app.id })}>
              <span className="card-title">{app.title || 'Untitled app'}</span>
              <span className="card-meta">
                {app.ui === 'http' ? <span className="badge">Served</span> : null}
                {app.drifted ? <span className="badge warn">Drifted</span> : null}
                <span>Updated {relativeTime(app.updatedAt)}</span>
              </span>
            </a>
          </li>
        ))}
      </ul>
    </PageFrame>
  );
}

/** Describe an app and have it built (`POST /apps`): the same generator a conversation uses, with any model. */
function NewApp() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const build = async (prompt: string) => {
    setBusy(true);
    setError(null);
    try {
      const made = await wire('POST', '/apps', { body: { prompt }, schema: z.object({ id: z.string() }) });
      navigate({ name: 'app', appId: made.id });
      return true;
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
      return false;
    }
  };
  return (
    <InstructionForm
      className="card form-card inline"
      aria-label="New app"
      id="new-app"
      label="Describe an app"
      placeholder="a reading list with a title, an author and a done checkbox"
      maxLength={4000}
      busy={busy}
      action={busy ? 'Building…' : 'Build'}
      onInstruction={build}
    >
      <InlineError error={error} />
    </InstructionForm>
  );
}

/**
 * One app, live: its tree with records and actions, or its own server in a frame when it is
 * served; a drift badge and a rebase action when it is a fork whose host component changed.
 */
export function AppPage({ appId }: { appId: string }) {
  const { epoch } = useSession();
  const opened = useLoad(
    (signal) => wire('GET', `/apps/${encodeURIComponent(appId)}/open`, { schema: openPayload, signal }),
    [appId, epoch],
  );
  const [notice, setNotice] = useState<Notice | null>(null);
  const [working, setWorking] = useState<'rebase' | 'edit' | 'delete' | 'serve' | null>(null);
  const { reload } = opened;
  const { updated, ownChange } = useAppUpdates(appId, reload);

  // A served app whose server is being brought back: look again until it serves.
  useEffect(() => {
    if (opened.data?.kind !== 'resuming') return;
    const timer = window.setTimeout(reload, 1500);
    return () => window.clearTimeout(timer);
  }, [opened.data, reload]);

  const document = opened.data?.payload?.document as unknown as AppDocument | undefined;
  const runtime = useAppRuntime(appId, document);

  // Rebasing, editing and serving each hold the page, say how it went, and show the app as it is after.
  const change = async (what: 'rebase' | 'edit' | 'serve', call: () => Promise<Notice | null>): Promise<boolean> => {
    setWorking(what);
    setNotice(null);
    try {
      // An edit's notice is the one its version brings (what changed); rebase and serve say it here.
      setNotice(what === 'edit' ? await call() : await ownChange(call));
      reload();
      return true;
    } catch (caught) {
      setNotice({ tone: 'error', text: describeError(caught) });
      return false;
    } finally {
      setWorking(null);
    }
  };

  const rebase = (slot: string) =>
    change('rebase', async () => {
      await wire('POST', `/apps/${encodeURIComponent(appId)}/rebase`, { body: { slot }, schema: editResult });
      return { tone: 'info', text: 'Rebased onto the new version of the component. Your changes were replayed.' };
    });

  const edit = (instruction: string) =>
    change('edit', async () => {
      const result = await wire('POST', `/apps/${encodeURIComponent(appId)}/edit`, { body: { instruction }, schema: editResult });
      return result.issues?.length ? { tone: 'info', text: result.issues.join(' ') } : null;
    });

  // Graduation: the app gets its own server; if any step fails the tree keeps serving.
  const graduate = () =>
    change('serve', async () => {
      await wire('POST', `/apps/${encodeURIComponent(appId)}/graduate`, { body: {} });
      return { tone: 'info', text: 'The app now runs on its own server.' };
    });

  const remove = async () => {
    setWorking('delete');
    try {
      await deleteWithUndo('app', appId);
      navigate({ name: 'apps' });
    } catch (caught) {
      setNotice({ tone: 'error', text: describeError(caught) });
      setWorking(null);
    }
  };

  if (opened.error && !opened.data) return <OpenFailed noun="App" gone="It may have been deleted, or it is not yours." loaded={opened} />;
  if (!opened.data || !document) {
    return (
      <PageFrame title={<span className="skeleton-text" aria-label="Loading" />}>
        <div className="skeleton-card tall" />
      </PageFrame>
    );
  }
  const drift = opened.data.pinDrift;
  const frame = opened.data.kind === 'http' ? frameUrl(opened.data.url) : null;

  return (
    <PageFrame
      title={document.title || 'Untitled app'}
      actions={
        <>
          {opened.data.kind !== 'tree' ? (
            <span className="badge">Served</span>
          ) : (
            <button
              type="button"
              className="button small secondary"
              disabled={working !== null}
              onClick={() => void graduate()}
              title="Give this app its own server"
            >
              {working === 'serve' ? 'Starting…' : 'Serve'}
            </button>
          )}
          <a className="button small secondary" href={`${WIRE}/apps/${encodeURIComponent(appId)}/export`} download>
            Export
          </a>
          <button type="button" className="button small secondary" disabled={working !== null} onClick={() => void remove()}>
            Delete
          </button>
        </>
      }
    >
      {drift ? (
        <div className="banner warn drift" role="status">
          <span>
            <span className="badge warn">Drifted</span> The component <code>{drift.slot}</code> this app forks has changed since you forked
            it. Nothing changes until you rebase.
          </span>
          <button type="button" className="button small primary" disabled={working !== null} onClick={() => void rebase(drift.slot)}>
            {working === 'rebase' ? 'Rebasing…' : 'Rebase'}
          </button>
        </div>
      ) : null}
      <NoticeBanner notice={notice} />
      {updated ? (
        <p className="banner info app-updated" role="status" data-version={updated.number}>
          Updated {updatedWhen(updated.createdAt)} — {updated.summary}
        </p>
      ) : null}
      {opened.data.kind === 'resuming' ? <p className="banner info">Starting the app’s server again…</p> : null}
      {opened.data.stopped ? <StoppedBanner stopped={opened.data.stopped} onRetry={reload} /> : null}
      {frame ? (
        // A new version is a new page: the frame loads it afresh.
        <ServedFrame key={opened.data.payload?.version ?? 'served'} appId={appId} title={document.title || 'App'} src={frame} />
      ) : (
        <div className="app-page-canvas">
          <AppRenderer view={viewOfDocument(appId, document)} runtime={runtime} />
        </div>
      )}
      <EditBox onEdit={edit} busy={working === 'edit'} />
    </PageFrame>
  );
}

/** When an app was updated, in words: "just now", else the time of day. */
function updatedWhen(iso: string): string {
  const when = relativeTime(iso);
  return when === 'just now' ? when : `at ${new Date(iso).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' })}`;
}

/** How often an open app looks for a newer version of itself. */
const VERSION_POLL_MS = 3000;

/** What a version changed, in words. */
const CHANGE_WORDS: Readonly<Record<string, string>> = {
  create: 'the app was built',
  edit: 'the app was changed',
  import: 'the app was imported',
  seed: 'the app was set up',
  rebase: 'the app was rebased onto the new version of its component',
  graduate: 'the app now runs on its own server',
};

/**
 * Follows an open app's versions: when one newer than the version it opened with appears (an edit
 * from this page, a conversation, another tab or device), the app is opened again, and what changed
 * is said (the instruction behind it, or the kind of change). Looks while the page is visible.
 */
function useAppUpdates(
  appId: string,
  reopen: () => void,
): { updated: { number: number; createdAt: string; summary: string } | null; ownChange: <T>(work: () => Promise<T>) => Promise<T> } {
  const [updated, setUpdated] = useState<{ number: number; createdAt: string; summary: string } | null>(null);
  const latest = useRef<number | null>(null);
  // A change this page makes says so itself: while it runs, looks only learn the newest version, and
  // at its end that version is the one known, with no second notice.
  const hushed = useRef(0);
  const ownChange = useCallback(
    async <T,>(work: () => Promise<T>): Promise<T> => {
      hushed.current += 1;
      try {
        const result = await work();
        try {
          const { versions } = await wire('GET', `/apps/${encodeURIComponent(appId)}/versions`, { schema: versionList });
          latest.current = Math.max(latest.current ?? 0, ...versions.map((v) => v.number));
        } catch {
          // The next look catches up, with a notice at worst.
        }
        return result;
      } finally {
        hushed.current -= 1;
      }
    },
    [appId],
  );
  const reopenNow = useRef(reopen);
  reopenNow.current = reopen;
  useEffect(() => {
    latest.current = null;
    setUpdated(null);
    let stopped = false;
    const look = async () => {
      if (document.visibilityState !== 'visible') return;
      try {
        const { versions } = await wire('GET', `/apps/${encodeURIComponent(appId)}/versions`, { schema: versionList });
        const newest = versions.reduce<(typeof versions)[number] | null>((a, v) => (!a || v.number > a.number ? v : a), null);
        if (stopped || !newest) return;
        const known = latest.current;
        if (known !== null && newest.number <= known) return;
        latest.current = newest.number;
        if (known === null || hushed.current > 0) return;
        setUpdated({
          number: newest.number,
          createdAt: newest.createdAt,
          summary: newest.instruction?.trim() || (CHANGE_WORDS[newest.change] ?? 'the app was changed'),
        });
        reopenNow.current();
      } catch {
        // Looked again on the next tick.
      }
    };
    void look();
    const timer = window.setInterval(() => void look(), VERSION_POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [appId]);
  return { updated, ownChange };
}

/** A served app its sandbox stopped for crossing a limit: what happened, and a way to try again once it may start. */
function StoppedBanner({ stopped, onRetry }: { stopped: { message: string; retryAt: string }; onRetry(): void }) {
  return (
    <div className="banner error" role="alert">
      <span>
        {stopped.message}. It can start again after {new Date(stopped.retryAt).toLocaleTimeString()}, or as soon as you change it.
      </span>
      <button type="button" className="button small secondary" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

function EditBox({ onEdit, busy }: { onEdit(instruction: string): Promise<boolean>; busy: boolean }) {
  return (
    <InstructionForm
      className="edit-box"
      id="app-edit"
      label="Change this app"
      placeholder="e.g. add a due date field"
      busy={busy}
      action={busy ? 'Changing…' : 'Change'}
      onInstruction={onEdit}
    />
  );
}

/**
 * A one-line instruction under its label, and its submit button, which waits for words and for the
 * last one to finish. The words are cleared once `onInstruction` says they were taken, kept otherwise.
 */
function InstructionForm({
  id,
  label,
  placeholder,
  maxLength,
  busy,
  action,
  onInstruction,
  className,
  'aria-label': ariaLabel,
  children,
}: {
  id: string;
  label: string;
  placeholder: string;
  maxLength?: number;
  busy: boolean;
  action: string;
  onInstruction(text: string): Promise<boolean>;
  className: string;
  'aria-label'?: string;
  children?: ReactNode;
}) {
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() || busy) return;
    void onInstruction(text.trim()).then((taken) => taken && setText(''));
  };
  return (
    <form className={className} onSubmit={submit} aria-label={ariaLabel}>
      <label htmlFor={id}>{label}</label>
      <div className="edit-row">
        <input
          id={id}
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={placeholder}
          maxLength={maxLength}
          disabled={busy}
        />
        <button type="submit" className="button primary" disabled={busy || !text.trim()}>
          {action}
        </button>
      </div>
      {children}
    </form>
  );
}

/**
 * A served app's own page, framed sandboxed, with the app bridge connected: the page asks this
 * frame for its records and actions (it cannot call the wire itself), and is told the chrome's
 * colour scheme and accent, again whenever the scheme changes.
 */
function ServedFrame({ appId, title, src }: { appId: string; title: string; src: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  // The height its page says its content takes (clamped by the bridge); the stylesheet's until then.
  const [height, setHeight] = useState<number | null>(null);
  useEffect(() => {
    if (!frame.current) return;
    const dark = window.matchMedia('(prefers-color-scheme: dark)');
    const theme = () => ({
      scheme: dark.matches ? ('dark' as const) : ('light' as const),
      accent: getComputedStyle(window.document.documentElement).getPropertyValue('--accent').trim(),
    });
    const bridge = connectServedApp({
      wire: WIRE,
      appId,
      frame: frame.current,
      theme,
      onChange: ({ result }) => {
        if ((result as { status?: unknown } | null)?.status === 'parked') announceApprovalsChanged();
      },
      onSize: setHeight,
    });
    const schemeChanged = () => bridge.sendTheme(theme());
    dark.addEventListener('change', schemeChanged);
    return () => {
      dark.removeEventListener('change', schemeChanged);
      bridge.disconnect();
    };
  }, [appId]);
  return (
    <iframe
      ref={frame}
      className="app-frame"
      title={title}
      src={src}
      sandbox={FRAME_SANDBOX}
      style={height !== null ? { height } : undefined}
      data-sized={height !== null ? 'content' : undefined}
    />
  );
}

/**
 * A served app's page is code Porter generated, not the host's, served from the wire's own origin:
 * it runs in an opaque origin (no allow-same-origin), so it cannot reach the wire with the
 * person's cookies. The wire's answer carries the same sandbox as a header.
 */
const FRAME_SANDBOX = 'allow-scripts allow-forms';

/** A served app's page: a path on the wire (`/apps/<id>/view/`). */
function frameUrl(url: string | undefined): string | null {
  return url && url.startsWith('/') && !url.startsWith('//') ? `${WIRE}${url}` : null;
}
