/** The porter app bridge's name, in every message either way. */
export const PROTOCOL = 'porter-app-bridge';

/** Asks for one op (`hello`, `records.list|put|delete`, `action`, `fn`) and answers its result. */
export type Ask = (op: string, payload: Record<string, unknown>, timeoutMs: number) => Promise<unknown>;

type Answer = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

/** What the bridge uses of the page's window; the browser's `window` is one. */
export interface BridgeWindow {
  readonly parent: { postMessage(message: unknown, targetOrigin: string): void };
  addEventListener(type: 'message', listener: (event: { source: unknown; data: unknown }) => void): void;
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(handle: number): void;
}

/**
 * The served page's side of the porter app bridge: each op posted to the framing window with an
 * id, answered by the message from that window carrying the same id. Messages from anywhere else,
 * or with no request waiting for them, are ignored. A page not framed is told to open the app
 * from Porter; a frame that does not answer in time is said to.
 */
export function frameBridge(win: BridgeWindow): Ask {
  const waiting = new Map<number, (answer: Answer) => void>();
  let nextId = 1;
  const framed = () => (win.parent as unknown) !== win;
  win.addEventListener('message', (event) => {
    if (event.source !== win.parent || !framed()) return;
    const message = event.data as { porter?: unknown; id?: unknown } & Answer;
    if (!message || message.porter !== PROTOCOL || typeof message.id !== 'number') return;
    const settle = waiting.get(message.id);
    if (!settle) return;
    waiting.delete(message.id);
    settle(message);
  });
  return (op, payload, timeoutMs) =>
    new Promise((resolve, reject) => {
      if (!framed()) return reject(new Error('This app runs inside Porter: open it from Porter’s Apps page.'));
      const id = nextId++;
      const timer = win.setTimeout(() => {
        waiting.delete(id);
        reject(new Error('Porter did not answer. Open this app from Porter’s Apps page.'));
      }, timeoutMs);
      waiting.set(id, (answer) => {
        win.clearTimeout(timer);
        if (answer.ok) resolve(answer.result);
        else reject(new Error(answer.error?.message || 'That did not work.'));
      });
      win.parent.postMessage({ porter: PROTOCOL, v: 1, id, op, ...payload }, '*');
    });
}

/** Calls `follow` with the theme of each `theme` message the framing window sends. */
export function onFrameTheme(win: Pick<BridgeWindow, 'parent' | 'addEventListener'>, follow: (theme: unknown) => void): void {
  win.addEventListener('message', (event) => {
    const message = event.data as { porter?: unknown; op?: unknown; theme?: unknown };
    if (event.source === win.parent && message && message.porter === PROTOCOL && message.op === 'theme') follow(message.theme);
  });
}
