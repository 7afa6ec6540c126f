import type { AppPageKit } from '../shared/app-page-kit.js';

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
 * also says which colour scheme and accent to follow.
 *
 * The scaffold embeds this function's own text, so it is self-contained: it names nothing from
 * outside its body (types aside), and the link rule and the kit it shares with the chrome's
 * renderer come in as arguments. `SERVED_PAGE_PRELUDE` goes before it.
 */
export function servedPageRuntime(
  app: ServedApp,
  safeUrl: (value: unknown, image: boolean, base?: string) => string | undefined,
  kit: AppPageKit,
): void {
  type Rec = { id: string; data: unknown };
  type Answer = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

  const PROTOCOL = 'porter-app-bridge';
  const main = document.getElementById('app') as HTMLElement;
  const records: Record<string, Rec[] | undefined> = {};
  const boundViews: Array<() => void> = [];
  const waiting = new Map<number, (answer: Answer) => void>();
  let nextId = 1;
  let connected = false;

  // The bridge: one request, one answer, matched by id; only the framing window is listened to.
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent || window.parent === window) return;
    const message = event.data as { porter?: unknown; id?: unknown } & Answer;
    if (!message || message.porter !== PROTOCOL || typeof message.id !== 'number') return;
    const settle = waiting.get(message.id);
    if (!settle) return;
    waiting.delete(message.id);
    settle(message);
  });
  const ask = (op: string, payload: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (window.parent === window) return reject(new Error('This app runs inside Porter: open it from Porter’s Apps page.'));
      const id = nextId++;
      const timer = window.setTimeout(() => {
        waiting.delete(id);
        reject(new Error('Porter did not answer. Open this app from Porter’s Apps page.'));
      }, timeoutMs);
      waiting.set(id, (answer) => {
        window.clearTimeout(timer);
        if (answer.ok) resolve(answer.result);
        else reject(new Error(answer.error?.message || 'That did not work.'));
      });
      window.parent.postMessage({ porter: PROTOCOL, v: 1, id, op, ...payload }, '*');
    });

  const applyTheme = (theme: unknown) => {
    const t = (theme ?? {}) as { scheme?: unknown; accent?: unknown };
    if (t.scheme === 'dark' || t.scheme === 'light') document.documentElement.dataset.scheme = t.scheme;
    if (typeof t.accent === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(t.accent))
      document.documentElement.style.setProperty('--accent', t.accent);
  };
  window.addEventListener('message', (event) => {
    const message = event.data as { porter?: unknown; op?: unknown; theme?: unknown };
    if (event.source === window.parent && message && message.porter === PROTOCOL && message.op === 'theme') applyTheme(message.theme);
  });

  // ---- drawing -------------------------------------------------------------------------------
  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const str = (value: unknown): string | undefined =>
    typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  const num = (value: unknown): number | undefined =>
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
        ? Number(value)
        : undefined;
  const list = (value: unknown): string[] =>
    typeof value === 'string'
      ? value
          .split(/[,|]/)
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  const { cell, summary, gatherFields: gather, clearFields: clear } = kit;
  let fieldCount = 0;
  const label = (field: HTMLElement, text: string | undefined, fallback: string): HTMLLabelElement => {
    field.id = `field-${++fieldCount}`;
    const tag = el('label', text ? undefined : 'visually-hidden', text ?? fallback);
    tag.htmlFor = field.id;
    return tag;
  };
  const notice = (anchor: HTMLElement, text: string, tone: 'info' | 'error') => {
    const next = anchor.nextElementSibling;
    if (next && next.classList.contains('outcome')) next.remove();
    const note = el('p', `outcome ${tone}`, text);
    note.setAttribute('role', tone === 'error' ? 'alert' : 'status');
    anchor.after(note);
  };

  /** A view of the app's records: drawn now, and again whenever they change. */
  const drawnLive = (view: HTMLElement, redraw: () => void): HTMLElement => {
    boundViews.push(redraw);
    redraw();
    return view;
  };

  const refresh = async (collection: string) => {
    const page = (await ask('records.list', { collection })) as { records?: Rec[] };
    records[collection] = Array.isArray(page?.records) ? page.records : [];
    for (const redraw of boundViews) redraw();
  };

  /** Runs the action named `name` with what the node gathered; what it came to is said beside `anchor`. */
  const act = async (name: string | undefined, input: { record?: Record<string, unknown>; recordId?: string }, anchor: HTMLElement) => {
    const action = name ? app.actions[name] : undefined;
    if (!action || !connected) return false;
    try {
      if (action.kind === 'put-record' && action.collection) {
        if (!input.recordId && Object.keys(input.record ?? {}).length === 0) return false;
        await ask('records.put', {
          collection: action.collection,
          ...(input.recordId ? { recordId: input.recordId } : {}),
          data: input.record ?? {},
        });
        await refresh(action.collection);
      } else if (action.kind === 'delete-record' && action.collection) {
        if (!input.recordId) return false;
        await ask('records.delete', { collection: action.collection, recordId: input.recordId });
        await refresh(action.collection);
      } else if (action.kind === 'tool') {
        const answer = (await ask('action', {
          action: name,
          input: input.record ?? (input.recordId ? { recordId: input.recordId } : {}),
        })) as {
          status?: string;
          preview?: string;
          output?: unknown;
        };
        if (answer?.status === 'parked')
          notice(anchor, `Waiting for your approval: ${answer.preview ?? action.tool}. Answer it in Porter’s Approvals.`, 'info');
        else notice(anchor, `Done: ${cell(answer?.output)}`.slice(0, 500), 'info');
      } else if (action.kind === 'call' && typeof action.target === 'string') {
        const fn = /^fn:([A-Za-z][A-Za-z0-9_-]{0,63})$/.exec(action.target);
        if (fn) notice(anchor, cell(await ask('fn', { name: fn[1], input: input.record ?? {} })).slice(0, 500) || 'Done.', 'info');
      }
      return true;
    } catch (error) {
      notice(anchor, error instanceof Error ? error.message : String(error), 'error');
      return false;
    }
  };

  const draw = (id: string, depth: number): Node | null => {
    const node = app.nodes[id];
    if (!node || depth > 64) return null;
    const p = node.props ?? {};
    const kids = () => (node.children ?? []).map((child) => draw(child, depth + 1)).filter((n): n is Node => n !== null);
    const text = str(p.text) ?? str(p.label) ?? str(p.title) ?? str(p.content) ?? str(p.value) ?? '';
    const name = str(p.name) ?? id;
    const withKids = (container: HTMLElement) => {
      container.append(...kids());
      return container;
    };
    switch (node.type) {
      case 'stack':
        return withKids(el('div', 'stack'));
      case 'row':
        return withKids(el('div', 'row'));
      case 'grid': {
        const grid = withKids(el('div', 'grid'));
        grid.style.gridTemplateColumns = `repeat(${Math.min(Math.max(Math.round(num(p.columns) ?? 2), 1), 6)}, minmax(0, 1fr))`;
        return grid;
      }
      case 'card': {
        const card = el('section', 'card');
        if (str(p.title)) card.append(el('h3', undefined, str(p.title)));
        return withKids(card);
      }
      case 'heading': {
        // The page's own title is the first heading level (h2 under the frame's page title, as the server draws it).
        const level = Math.min(Math.max(Math.round(num(p.level) ?? 1), 1), 4);
        return el((['h2', 'h3', 'h4', 'h5'] as const)[level - 1]!, undefined, text);
      }
      case 'text':
        return el('p', undefined, text);
      case 'button': {
        const button = el('button', 'button', text || 'Button');
        button.type = node.action ? 'button' : 'submit';
        if (node.action)
          button.addEventListener('click', () => {
            const scope = button.closest('form, .card, .row, .stack, main') ?? main;
            const record = gather(scope);
            button.disabled = true;
            void act(node.action, Object.keys(record).length > 0 ? { record } : {}, button).then((done) => {
              button.disabled = false;
              if (done) clear(scope);
            });
          });
        return button;
      }
      case 'input':
      case 'textarea': {
        const field = node.type === 'input' ? el('input') : el('textarea');
        field.name = name;
        field.placeholder = str(p.placeholder) ?? '';
        if (field instanceof HTMLInputElement) {
          const kind = str(p.inputType ?? p.kind);
          field.type = kind && ['text', 'number', 'date', 'email', 'url', 'time', 'tel'].includes(kind) ? kind : 'text';
          field.required = p.required === true;
        } else field.rows = 3;
        const wrap = el('div', 'field');
        wrap.append(label(field, str(p.label), str(p.placeholder) ?? name), field);
        return wrap;
      }
      case 'checkbox': {
        const wrap = el('label', 'check');
        const box = el('input');
        box.type = 'checkbox';
        box.name = name;
        box.defaultChecked = p.checked === true;
        wrap.append(box, el('span', undefined, str(p.label) ?? text));
        return wrap;
      }
      case 'select': {
        const select = el('select');
        select.name = name;
        for (const option of list(p.options)) select.append(el('option', undefined, option));
        const wrap = el('div', 'field');
        wrap.append(label(select, str(p.label), name), select);
        return wrap;
      }
      case 'list': {
        if (!node.bind) {
          const ul = el('ul', 'list');
          for (const child of kids()) {
            const li = el('li');
            li.append(child);
            ul.append(li);
          }
          return ul;
        }
        const holder = el('div', 'bound');
        const collection = app.data[node.bind]?.collection;
        const redraw = () => {
          const shown = collection ? records[collection] : [];
          holder.replaceChildren();
          if (shown === undefined) {
            holder.setAttribute('aria-busy', 'true');
            return;
          }
          holder.removeAttribute('aria-busy');
          if (shown.length === 0) return void holder.append(el('p', 'empty', str(p.empty) ?? 'Nothing here yet.'));
          const ul = el('ul', 'list');
          for (const record of shown) {
            const li = el('li', 'item');
            li.append(el('span', undefined, summary(record.data)));
            if (node.action) {
              const remove = el('button', 'link', str(p.actionLabel) ?? 'Remove');
              remove.type = 'button';
              remove.addEventListener('click', () => void act(node.action, { recordId: record.id }, holder));
              li.append(remove);
            }
            ul.append(li);
          }
          holder.append(ul);
        };
        return drawnLive(holder, redraw);
      }
      case 'table': {
        const wrap = el('div', 'table-wrap');
        const collection = node.bind ? app.data[node.bind]?.collection : undefined;
        const redraw = () => {
          const shown = collection ? (records[collection] ?? []) : [];
          const columns = list(p.columns);
          const first = shown[0];
          const keys = columns.length > 0 ? columns : first && isObject(first.data) ? Object.keys(first.data).slice(0, 6) : [];
          const table = el('table');
          if (str(p.caption)) table.append(el('caption', undefined, str(p.caption)));
          const head = el('tr');
          for (const key of keys) {
            const th = el('th', undefined, key);
            th.scope = 'col';
            head.append(th);
          }
          const thead = el('thead');
          thead.append(head);
          const tbody = el('tbody');
          for (const record of shown) {
            const row = el('tr');
            for (const key of keys) row.append(el('td', undefined, isObject(record.data) ? cell(record.data[key]) : ''));
            tbody.append(row);
          }
          table.append(thead, tbody);
          wrap.replaceChildren(table);
        };
        return drawnLive(wrap, redraw);
      }
      case 'chart': {
        const figure = el('figure', 'chart');
        const collection = node.bind ? app.data[node.bind]?.collection : undefined;
        const valueKey = str(p.valueKey) ?? 'value';
        const labelKey = str(p.labelKey) ?? 'label';
        const redraw = () => {
          figure.replaceChildren();
          if (str(p.title)) figure.append(el('figcaption', undefined, str(p.title)));
          const points = (collection ? (records[collection] ?? []) : []).flatMap((r) =>
            isObject(r.data) && typeof r.data[valueKey] === 'number'
              ? [{ label: String(r.data[labelKey] ?? ''), value: r.data[valueKey] as number }]
              : [],
          );
          if (points.length === 0) return void figure.append(el('p', 'empty', 'No data to chart yet.'));
          const max = Math.max(1, ...points.map((point) => point.value));
          const bars = el('div', 'bars');
          for (const point of points) {
            const bar = el('div', 'bar');
            bar.title = `${point.label}: ${point.value}`;
            const fill = el('span', 'fill');
            fill.style.height = `${(point.value / max) * 100}%`;
            bar.append(fill, el('span', 'bar-label', point.label));
            bars.append(bar);
          }
          figure.append(bars);
        };
        return drawnLive(figure, redraw);
      }
      case 'image': {
        const src = safeUrl(str(p.src), true, location.href);
        if (!src) return el('div', 'image-placeholder', str(p.alt) ?? 'Image');
        const image = el('img');
        image.src = src;
        image.alt = str(p.alt) ?? '';
        image.loading = 'lazy';
        return image;
      }
      case 'link': {
        const href = safeUrl(str(p.href) ?? str(p.url), false, location.href);
        if (!href) return el('span', undefined, text);
        const link = el('a', undefined, text || href);
        link.href = href;
        link.target = '_blank';
        link.rel = 'noopener noreferrer';
        return link;
      }
      case 'divider':
        return el('hr');
      case 'form': {
        const form = el('form', 'form');
        if (str(p.title)) form.append(el('h3', undefined, str(p.title)));
        withKids(form);
        form.addEventListener('submit', (event) => {
          event.preventDefault();
          void act(node.action, { record: gather(form) }, form).then((done) => done && clear(form));
        });
        return form;
      }
      default:
        return withKids(el('div', 'stack'));
    }
  };

  const root = draw(app.root, 0);
  main.replaceChildren(...(root ? [root] : []));
  main.removeAttribute('aria-busy');

  const collections = [...new Set(Object.values(app.data).map((binding) => binding.collection))];
  void ask('hello', {}, 5000).then(
    (hello) => {
      connected = true;
      applyTheme((hello as { theme?: unknown } | null)?.theme);
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

/** What the runtime reads of the app's document. */
export interface ServedApp {
  readonly title: string;
  readonly root: string;
  readonly nodes: Readonly<
    Record<
      string,
      {
        readonly type: string;
        readonly props?: Readonly<Record<string, string | number | boolean | null>>;
        readonly children?: ReadonlyArray<string>;
        readonly bind?: string;
        readonly action?: string;
      }
    >
  >;
  readonly data: Readonly<Record<string, { readonly collection: string }>>;
  readonly actions: Readonly<
    Record<string, { readonly kind: string; readonly collection?: string; readonly tool?: string; readonly target?: string }>
  >;
}

/**
 * What the embedded text needs before it: some compilers name nested functions through a helper
 * (`__name`); in the page it only has to hand the function back.
 */
export const SERVED_PAGE_PRELUDE = 'var __name = function (fn) { return fn; };';
