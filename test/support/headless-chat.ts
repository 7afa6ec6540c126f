import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, type UIMessage } from 'ai';

/** The AI SDK's chat state kept in plain fields, with a hook for every change. */
class PlainChatState implements ChatState<UIMessage> {
  error: Error | undefined = undefined;
  private current: ChatStatus = 'ready';

  constructor(
    private list: UIMessage[],
    private readonly changed: () => void,
  ) {}

  get status(): ChatStatus {
    return this.current;
  }

  set status(status: ChatStatus) {
    this.current = status;
    this.changed();
  }

  get messages(): UIMessage[] {
    return this.list;
  }

  set messages(messages: UIMessage[]) {
    this.list = [...messages];
    this.changed();
  }

  pushMessage = (message: UIMessage) => {
    this.list = [...this.list, message];
    this.changed();
  };

  popMessage = () => {
    this.list = this.list.slice(0, -1);
    this.changed();
  };

  replaceMessage = (index: number, message: UIMessage) => {
    this.list = [...this.list.slice(0, index), message, ...this.list.slice(index + 1)];
    this.changed();
  };

  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/**
 * The AI SDK's own chat (`AbstractChat`, what `useChat` drives) without React: a real client to
 * drive a transport with, and a way to wait until its messages say something.
 */
export class HeadlessChat extends AbstractChat<UIMessage> {
  private readonly waiters = new Set<() => void>();

  constructor(init: ChatInit<UIMessage>) {
    let notify = () => {};
    const state = new PlainChatState(init.messages ?? [], () => notify());
    super({ ...init, state });
    notify = () => this.waiters.forEach((wake) => wake());
  }

  /** Resolves once `check` holds for the chat (checked on every change); fails after `timeoutMs`. */
  until(check: (chat: HeadlessChat) => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    if (check(this)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const wake = () => {
        if (!check(this)) return;
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(new Error(`timed out waiting for ${what}; messages: ${JSON.stringify(this.messages)}`));
      }, timeoutMs);
      this.waiters.add(wake);
    });
  }
}
