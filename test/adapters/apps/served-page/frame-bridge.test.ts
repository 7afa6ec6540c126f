import { expect } from 'chai';
import { frameBridge, onFrameTheme, PROTOCOL, type BridgeWindow } from '../../../../adapters/apps/served-page/frame-bridge.js';

/** A page's window in a frame, for the bridge: what it posts to its parent, and messages arriving. */
class FramedWindow implements BridgeWindow {
  readonly posted: Array<Record<string, unknown>> = [];
  readonly parent: { postMessage(message: unknown): void };
  private readonly listeners: Array<(event: { source: unknown; data: unknown }) => void> = [];
  private readonly timers = new Map<number, () => void>();
  private nextTimer = 1;

  constructor(framed = true) {
    this.parent = framed ? { postMessage: (message) => this.posted.push(message as Record<string, unknown>) } : this;
  }
  postMessage(message: unknown): void {
    this.posted.push(message as Record<string, unknown>);
  }
  addEventListener(_type: 'message', listener: (event: { source: unknown; data: unknown }) => void): void {
    this.listeners.push(listener);
  }
  setTimeout(callback: () => void): number {
    this.timers.set(this.nextTimer, callback);
    return this.nextTimer++;
  }
  clearTimeout(handle: number): void {
    this.timers.delete(handle);
  }
  /** A message arrives, from the parent unless said otherwise. */
  receive(data: unknown, source: unknown = this.parent): void {
    for (const listener of this.listeners) listener({ source, data });
  }
  /** Every pending timeout runs out. */
  runOutOfTime(): void {
    for (const [handle, callback] of [...this.timers]) {
      this.timers.delete(handle);
      callback();
    }
  }
  pendingTimers(): number {
    return this.timers.size;
  }
}

describe('The served page asks the page that frames it, one answer per request (frame-bridge)', () => {
  it('posts each op to the parent with an id and the payload, and resolves with the answer carrying that id', async () => {
    const win = new FramedWindow();
    const ask = frameBridge(win);
    const first = ask('records.list', { collection: 'items' }, 30_000);
    const second = ask('hello', {}, 5_000);
    expect(win.posted).to.deep.equal([
      { porter: PROTOCOL, v: 1, id: 1, op: 'records.list', collection: 'items' },
      { porter: PROTOCOL, v: 1, id: 2, op: 'hello' },
    ]);
    win.receive({ porter: PROTOCOL, id: 2, ok: true, result: { theme: { scheme: 'dark' } } });
    win.receive({ porter: PROTOCOL, id: 1, ok: true, result: { records: [] } });
    expect(await second).to.deep.equal({ theme: { scheme: 'dark' } });
    expect(await first).to.deep.equal({ records: [] });
    expect(win.pendingTimers(), 'answered requests stop waiting').to.equal(0);
  });

  it('rejects with what the frame said when it refuses, and with a plain sentence when it says nothing', async () => {
    const win = new FramedWindow();
    const ask = frameBridge(win);
    const refused = ask('records.put', {}, 30_000);
    const silent = ask('records.put', {}, 30_000);
    win.receive({ porter: PROTOCOL, id: 1, ok: false, error: { code: 'forbidden', message: 'Not this app’s records.' } });
    win.receive({ porter: PROTOCOL, id: 2, ok: false });
    await expectRejection(refused, 'Not this app’s records.');
    await expectRejection(silent, 'That did not work.');
  });

  it('ignores answers from anywhere but the parent, of another protocol, or for no waiting request', async () => {
    const win = new FramedWindow();
    const ask = frameBridge(win);
    let settled = false;
    const asked = ask('hello', {}, 5_000).finally(() => (settled = true));
    win.receive({ porter: PROTOCOL, id: 1, ok: true, result: 'forged' }, { postMessage() {} });
    win.receive({ porter: 'other', id: 1, ok: true, result: 'forged' });
    win.receive({ porter: PROTOCOL, id: '1', ok: true, result: 'forged' });
    win.receive({ porter: PROTOCOL, id: 7, ok: true, result: 'stray' });
    win.receive(null);
    await Promise.resolve();
    expect(settled).to.equal(false);
    win.receive({ porter: PROTOCOL, id: 1, ok: true, result: 'hello' });
    expect(await asked).to.equal('hello');
  });

  it('tells the person to open the app from Porter when the frame does not answer in time', async () => {
    const win = new FramedWindow();
    const asked = frameBridge(win)('hello', {}, 5_000);
    win.runOutOfTime();
    await expectRejection(asked, 'Porter did not answer. Open this app from Porter’s Apps page.');
    win.receive({ porter: PROTOCOL, id: 1, ok: true, result: 'late' });
  });

  it('asks nothing of a page opened on its own, and says where to open it', async () => {
    const win = new FramedWindow(false);
    await expectRejection(frameBridge(win)('hello', {}, 5_000), 'This app runs inside Porter: open it from Porter’s Apps page.');
    expect(win.posted).to.deep.equal([]);
  });

  it('follows the theme messages of the parent only', () => {
    const win = new FramedWindow();
    const themes: unknown[] = [];
    onFrameTheme(win, (theme) => themes.push(theme));
    win.receive({ porter: PROTOCOL, op: 'theme', theme: { scheme: 'dark' } });
    win.receive({ porter: PROTOCOL, op: 'theme', theme: { scheme: 'light' } }, { postMessage() {} });
    win.receive({ porter: PROTOCOL, op: 'size', theme: { scheme: 'light' } });
    expect(themes).to.deep.equal([{ scheme: 'dark' }]);
  });
});

async function expectRejection(promise: Promise<unknown>, message: string): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).to.be.instanceOf(Error);
  expect((error as Error).message).to.equal(message);
}
