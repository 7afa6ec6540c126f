import { z } from 'zod';
import type { AppDocument } from '../../../domain/apps/app-document.js';
import { viewOfDocument, type AppView } from '../../../domain/apps/app-view.js';
import { AppRenderer } from './app-renderer.js';
import { useAppRuntime } from './app-runtime.js';
import { hrefOf } from './route.js';
import { useLoad } from './use-load.js';
import { wire } from './wire.js';

/** An app as `GET /apps/:id` answers it: only its document is read here. */
const storedApp = z.object({
  document: z.object({ title: z.string(), ui: z.enum(['tree', 'http']), root: z.string() }).passthrough(),
});

const propValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const viewNode = z.object({
  type: z.string().nullable(),
  props: z.record(z.string(), propValue).catch({}),
  children: z.array(z.string()).catch([]),
  pending: z.boolean(),
  bind: z.string().optional(),
  action: z.string().optional(),
});
/** The `data` of a `data-porter-view` part (domain/apps/app-view.ts), read defensively. */
export const appViewSchema = z.object({
  appId: z.string(),
  status: z.enum(['generating', 'ready', 'failed']),
  title: z.string().nullable(),
  ui: z.enum(['tree', 'http']),
  root: z.string().nullable(),
  nodes: z.record(z.string(), viewNode),
  message: z.string().optional(),
  pinDrift: z.object({ slot: z.string(), baselineHash: z.string(), currentHash: z.string() }).optional().catch(undefined),
});

/**
 * A generated app inside a conversation. Every update of the same app arrives under one part id,
 * so this component receives the newest view in place and re-renders the same tree.
 */
export function AppViewPart({ data }: { data: unknown }) {
  const parsed = appViewSchema.safeParse(data);
  if (!parsed.success) return null;
  return <AppViewCard view={parsed.data as AppView} />;
}

function AppViewCard({ view }: { view: AppView }) {
  const pending = Object.values(view.nodes).filter((n) => n.pending).length;
  // Built, a tree app is usable right here: its document loaded, its records and actions live, as
  // on its own page. A served app runs on its own server: its page opens it.
  const live = view.status === 'ready' && view.ui === 'tree';
  const stored = useLoad(
    (signal) => (live ? wire('GET', `/apps/${encodeURIComponent(view.appId)}`, { schema: storedApp, signal }) : Promise.resolve(null)),
    // A new version of the app (an edit in the conversation) brings a new tree: loaded again.
    [
      view.appId,
      live,
      Object.entries(view.nodes)
        .map(([id, n]) => `${id}:${n.type ?? ''}`)
        .join(' '),
    ],
  );
  const document = (stored.data?.document ?? undefined) as AppDocument | undefined;
  const runtime = useAppRuntime(view.appId, document);
  return (
    <section
      className="app-view"
      data-app-id={view.appId}
      data-status={view.status}
      aria-label={`App: ${view.title ?? 'being built'}`}
      aria-busy={view.status === 'generating'}
    >
      <header className="app-view-head">
        {/* A heading, so the app's own card titles (h3) sit under it with no level skipped. */}
        <h2 className="app-view-title">{view.title ?? 'New app'}</h2>
        <span className={`pill ${view.status}`}>
          {view.status === 'generating' ? `Building${pending ? ` · ${pending} to go` : '…'}` : view.status === 'ready' ? 'Ready' : 'Failed'}
        </span>
        {view.status === 'ready' ? (
          <a className="button small secondary" href={hrefOf({ name: 'app', appId: view.appId })}>
            Open app
          </a>
        ) : null}
      </header>
      {view.pinDrift ? (
        <p className="app-view-drift" role="status">
          <span className="badge warn">Drifted</span> The component <code>{view.pinDrift.slot}</code> this app forks has changed. Nothing
          changes until you rebase it from the app’s page.
        </p>
      ) : null}
      {view.status === 'failed' && view.message ? (
        <p className="message-error" role="alert">
          {view.message}
        </p>
      ) : null}
      {view.status === 'ready' && view.ui === 'http' ? (
        <p className="app-view-served muted">
          This app runs on its own server. <a href={hrefOf({ name: 'app', appId: view.appId })}>Open it</a> to use it.
        </p>
      ) : document && runtime ? (
        <AppRenderer view={viewOfDocument(view.appId, document)} runtime={runtime} />
      ) : (
        <AppRenderer view={view} />
      )}
    </section>
  );
}
