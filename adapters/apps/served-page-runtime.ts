import { appPageKit } from '../shared/app-page-kit.js';
import { runAction } from './served-page/app-actions.js';
import type { PageRecord } from './served-page/draw-context.js';
import { frameBridge, onFrameTheme, PROTOCOL } from './served-page/frame-bridge.js';
import { applyTheme } from './served-page/page-theme.js';
import type { AppBridge, ServedApp } from './served-page/served-app.js';
import { el, notice } from './served-page/page-elements.js';
import { drawTree } from './served-page/tree-drawing.js';

export type { AppBridge, ServedApp } from './served-page/served-app.js';

/**
 * The script of a served app's page, as Porter's scaffold serves it: it draws the app's tree in
 * the browser and makes it live — its lists show the app's records, its buttons and forms run the
 * app's actions — exactly as the chrome's renderer does for a tree app, so graduating keeps both
 * the behaviour and the data.
 *
 * The page runs sandboxed in an opaque origin and sees nothing of the host, so it never calls the
 * wire itself: it asks the page that frames it, over `postMessage`, in the porter app bridge
 * protocol (`porter-runtime/client`'s `connectServedApp`, which the chrome runs). The frame answers
 * only for this app's own records, actions and functions, as the person who opened it. The frame
 * also says which colour scheme and accent to follow. An MCP Apps page hands its own `bridge`.
 *
 * A browser module: `served-page-script.ts` bundles it (with its pieces in `served-page/`: the
 * bridge, the theme, the tree's drawing and the actions; the link rule and the kit it shares with
 * the chrome's renderer) into the one script the page inlines.
 */
export function startServedPage(app: ServedApp, bridge?: AppBridge): void {
  const main = document.getElementById('app') as HTMLElement;
  const records: Record<string, PageRecord[] | undefined> = {};
  const boundViews: Array<() => void> = [];
  let connected = false;

  const askTheFrame = bridge ? undefined : frameBridge(window);
  const ask = (op: string, payload: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<unknown> =>
    bridge ? bridge(op, payload, timeoutMs) : askTheFrame!(op, payload, timeoutMs);
  onFrameTheme(window, (theme) => applyTheme(document.documentElement, theme));

  const kit = appPageKit();
  const refresh = async (collection: string) => {
    const page = (await ask('records.list', { collection })) as { records?: PageRecord[] };
    records[collection] = Array.isArray(page?.records) ? page.records : [];
    for (const redraw of boundViews) redraw();
  };

  const root = drawTree({
    app,
    main,
    kit,
    records,
    live: (view, redraw) => {
      boundViews.push(redraw);
      redraw();
      return view;
    },
    act: async (name, input, anchor) => {
      if (!connected) return false;
      const outcome = await runAction({ app, ask, refresh, cell: kit.cell }, name, input);
      if (outcome.notice) notice(anchor, outcome.notice.text, outcome.notice.tone);
      return outcome.done;
    },
  });
  // The page's title as its h1: unseen (the page that frames it shows the title), but there for a
  // screen reader's outline, above the app's own headings (h2 and below).
  const title = el('h1', 'visually-hidden', app.title);
  main.replaceChildren(title, ...(root ? [root] : []));
  main.removeAttribute('aria-busy');

  // Framed by a page running the porter app bridge: tell it how tall the content is, whenever that
  // changes, so the frame fits it with no empty space and no scrollbar of its own. Only a height;
  // the framing page decides what it allows.
  if (!bridge && window.parent !== window && typeof ResizeObserver === 'function') {
    let told = -1;
    const tell = () => {
      const style = getComputedStyle(document.body);
      const height = Math.ceil(main.getBoundingClientRect().bottom + parseFloat(style.paddingBottom) + parseFloat(style.marginBottom));
      if (!Number.isFinite(height) || height === told) return;
      told = height;
      window.parent.postMessage({ porter: PROTOCOL, v: 1, op: 'size', height }, '*');
    };
    new ResizeObserver(tell).observe(main);
    tell();
  }

  const collections = [...new Set(Object.values(app.data).map((binding) => binding.collection))];
  void ask('hello', {}, 5000).then(
    (hello) => {
      connected = true;
      applyTheme(document.documentElement, (hello as { theme?: unknown } | null)?.theme);
      for (const collection of collections) void refresh(collection).catch(() => undefined);
    },
    (error: unknown) => {
      for (const collection of collections) records[collection] = [];
      for (const redraw of boundViews) redraw();
      const note = el('p', 'outcome error', error instanceof Error ? error.message : String(error));
      note.setAttribute('role', 'alert');
      main.prepend(note);
    },
  );
}
