import { z } from 'zod';
import type { AppView } from '../../../domain/apps/app-view.js';
import { AppRenderer } from './app-renderer.js';
import { hrefOf } from './route.js';

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
  const view = parsed.data as AppView;
  const pending = Object.values(view.nodes).filter((n) => n.pending).length;
  return (
    <section
      className="app-view"
      data-app-id={view.appId}
      data-status={view.status}
      aria-label={`App: ${view.title ?? 'being built'}`}
      aria-busy={view.status === 'generating'}
    >
      <header className="app-view-head">
        <span className="app-view-title">{view.title ?? 'New app'}</span>
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
      <AppRenderer view={view} />
    </section>
  );
}
