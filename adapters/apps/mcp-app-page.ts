import type { DoorAppView } from '../../ports/use-cases/door.js';
import type { AppBridge, ServedApp } from './served-page/served-app.js';
import { inlineServedPageScript, SERVED_PAGE_GLOBAL } from './served-page-script.js';
import { SERVED_PAGE_STYLE } from './served-page-style.js';

/**
 * An app as an MCP Apps view: one self-contained HTML5 document (no script, style or request
 * leaves it, so the host's restrictive default CSP suits it) that draws the app with the very
 * runtime a served app's page runs, and asks for everything through the host over `postMessage`
 * in the extension's JSON-RPC (`ui/initialize`, then `tools/call`, which the host proxies to the
 * door). With `view`, the app and its records come inside the page; without (the template a tool
 * links), the page draws the app the host hands it in the tool's result.
 */
export function mcpAppPage(view: DoorAppView | null): string {
  const title = view ? escapeHtml(view.app.title) : 'App';
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="color-scheme" content="light dark"><title>${title}</title><style>${SERVED_PAGE_STYLE}</style></head>` +
    `<body><main id="app" aria-busy="true"></main>` +
    // The app as data for the script; "<" escaped so no text in it can close the element.
    `<script type="application/json" id="porter-app">${JSON.stringify(view).replace(/</g, '\\u003c')}</script>` +
    `<script>${pageScript()}</script></body></html>`
  );
}

let script: string | null = null;

/**
 * The page's script: the served page's runtime (its bundle), and the bridge, handed how to start
 * it. `SERVED_PAGE_PRELUDE` goes before the bridge's own text. Inline, so no `</script` in its
 * text may end the element early.
 */
function pageScript(): string {
  script ??= inlineServedPageScript(
    `${SERVED_PAGE_PRELUDE}(${mcpAppBridge.toString()})(JSON.parse(document.getElementById('porter-app').textContent), ` +
      `function (app, bridge) { ${SERVED_PAGE_GLOBAL}.startServedPage(app, bridge); });`,
  );
  return script;
}

/**
 * What the embedded text needs before it: some compilers name nested functions through a helper
 * (`__name`); in the page it only has to hand the function back.
 */
const SERVED_PAGE_PRELUDE = 'var __name = function (fn) { return fn; };';

/** The app and records as the page holds them: a DoorAppView, read from JSON. */
interface PageView {
  readonly app: ServedApp & { readonly id: string };
  readonly records: Readonly<Record<string, ReadonlyArray<{ id: string; data: unknown }>>>;
}

/**
 * The View's side of MCP Apps, in the page: `ui/initialize` with the host (then
 * `ui/notifications/initialized`), the app's ops as door tools through the host's `tools/call`
 * (records as `porter_apps_data_*`, a tool action as the host tool it names, with the document's
 * fixed input over what the page gathered), the host's theme, and the page's size for hosts that
 * size the frame to it. Every call reaches the door as any tool call does, so the guard decides it
 * there: a write waits for the person's approval like an agent's. Self-contained: the page embeds
 * its text (see `mcpAppPage`).
 */
export function mcpAppBridge(embedded: PageView | null, start: (app: PageView['app'], bridge: AppBridge) => void): void {
  type Rpc = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: { message?: unknown } };
  type ToolResult = { isError?: boolean; content?: Array<{ type?: string; text?: string }>; structuredContent?: Record<string, unknown> };

  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let view: PageView | null = embedded;
  let started = false;
  /** Records handed in with the app, answered once per collection before the door is asked again. */
  const handed = new Map<string, ReadonlyArray<{ id: string; data: unknown }>>(Object.entries(embedded?.records ?? {}));

  const post = (message: Record<string, unknown>) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method: string, params: Record<string, unknown>, timeoutMs = 30_000): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (window.parent === window) return reject(new Error('This app is an MCP App: open it from an MCP client that renders apps.'));
      const id = nextId++;
      const timer = window.setTimeout(() => {
        waiting.delete(id);
        reject(new Error('The host did not answer.'));
      }, timeoutMs);
      waiting.set(id, {
        resolve: (value) => {
          window.clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          window.clearTimeout(timer);
          reject(error);
        },
      });
      post({ id, method, params });
    });

  const applyTheme = (theme: unknown) => {
    if (theme === 'dark' || theme === 'light') document.documentElement.dataset.scheme = theme;
  };
  const begin = (next: PageView) => {
    if (started) return;
    started = true;
    view = next;
    for (const [collection, records] of Object.entries(next.records ?? {})) handed.set(collection, records);
    start(next.app, bridge);
  };

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const message = event.data as Rpc;
    if (!message || message.jsonrpc !== '2.0') return;
    if (typeof message.id === 'number' && message.method === undefined) {
      const settle = waiting.get(message.id);
      if (!settle) return;
      waiting.delete(message.id);
      if (message.error) settle.reject(new Error(String(message.error.message ?? 'The host refused.')));
      else settle.resolve(message.result);
      return;
    }
    const params = (message.params ?? {}) as Record<string, unknown>;
    if (message.method === 'ui/notifications/tool-result') {
      const shown = ((params as ToolResult).structuredContent ?? {}).appView as PageView | undefined;
      if (shown && shown.app && typeof shown.app.root === 'string') begin(shown);
    } else if (message.method === 'ui/notifications/host-context-changed') applyTheme(params.theme);
    else if (message.method === 'ui/resource-teardown' && message.id !== undefined) post({ id: message.id, result: {} });
  });

  const initialized = request('ui/initialize', {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'porter-app', version: '1' },
    appCapabilities: { availableDisplayModes: ['inline'] },
  }).then((result) => {
    post({ method: 'ui/notifications/initialized', params: {} });
    const context = ((result ?? {}) as { hostContext?: { theme?: unknown } }).hostContext;
    applyTheme(context?.theme);
    return context;
  });

  /** What a tool call came to, as the page's ops answer: its output, or an Error saying why not. */
  const callTool = async (name: string, args: Record<string, unknown>): Promise<{ parked?: string; output?: unknown }> => {
    await initialized;
    const result = (await request('tools/call', { name, arguments: args }, 120_000)) as ToolResult;
    const structured = result.structuredContent ?? {};
    const text = (result.content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join(' ');
    if (structured.status === 'approval-required') return { parked: String(structured.preview ?? name) };
    if (result.isError) throw new Error(text || `${name} did not work.`);
    return { output: result.structuredContent ?? text };
  };
  const waitingFor = (preview: string) => new Error(`Waiting for your approval: ${preview}. Approve it, then try again.`);

  const bridge: AppBridge = async (op, payload) => {
    const current = view;
    if (!current) throw new Error('The app has not arrived.');
    const appId = current.app.id;
    const collection = typeof payload.collection === 'string' ? payload.collection : '';
    switch (op) {
      case 'hello': {
        const context = await initialized;
        return { theme: { scheme: context?.theme } };
      }
      case 'records.list': {
        const records = handed.get(collection);
        if (records) {
          handed.delete(collection);
          return { records };
        }
        const answer = await callTool('porter_apps_data_list', { appId, collection });
        if (answer.parked !== undefined) throw waitingFor(answer.parked);
        return answer.output;
      }
      case 'records.put':
      case 'records.delete': {
        const put = op === 'records.put';
        const answer = await callTool(put ? 'porter_apps_data_put' : 'porter_apps_data_delete', {
          appId,
          collection,
          // Shipped as its own text (mcpAppBridge.toString()): it can call nothing it does not define, defined() included.
          // eslint-disable-next-line no-restricted-syntax
          ...(typeof payload.recordId === 'string' ? { id: payload.recordId } : {}),
          // eslint-disable-next-line no-restricted-syntax
          ...(put ? { data: payload.data ?? {} } : {}),
        });
        if (answer.parked !== undefined) throw waitingFor(answer.parked);
        return answer.output;
      }
      case 'action': {
        const name = typeof payload.action === 'string' ? payload.action : '';
        const action = Object.hasOwn(current.app.actions, name) ? current.app.actions[name] : undefined;
        if (!action || action.kind !== 'tool' || typeof action.tool !== 'string') throw new Error('This action is not one the app has.');
        const fixed = (action as { input?: Record<string, unknown> }).input ?? {};
        const answer = await callTool(action.tool, { ...((payload.input ?? {}) as Record<string, unknown>), ...fixed });
        return answer.parked !== undefined ? { status: 'parked', preview: answer.parked } : { status: 'ran', output: answer.output };
      }
      case 'fn':
        throw new Error('This app’s own functions run only in Porter: open the app there to use them.');
      default:
        throw new Error(`Unknown request ${op}.`);
    }
  };

  // A host's sandbox may not allow forms, which blocks a submission before its submit event: the
  // page submits its forms itself (a submit button pressed, Enter in a field) for the runtime to act on.
  const submit = (event: Event, form: HTMLFormElement | null) => {
    if (!form) return;
    event.preventDefault();
    form.dispatchEvent(new Event('submit', { cancelable: true }));
  };
  document.addEventListener(
    'click',
    (event) => {
      const button = event.target instanceof Element ? event.target.closest('button') : null;
      if (button && button.type === 'submit') submit(event, button.form);
    },
    true,
  );
  document.addEventListener(
    'keydown',
    (event) => {
      if (event.key === 'Enter' && event.target instanceof HTMLInputElement) submit(event, event.target.form);
    },
    true,
  );

  // Hosts that size the frame to its content are told the content's size as it changes.
  if (typeof ResizeObserver === 'function') {
    let last = '';
    new ResizeObserver(() => {
      const size = { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight };
      const key = `${size.width}x${size.height}`;
      if (key === last) return;
      last = key;
      void initialized.then(() => post({ method: 'ui/notifications/size-changed', params: size }));
    }).observe(document.documentElement);
  }

  if (embedded) begin(embedded);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
