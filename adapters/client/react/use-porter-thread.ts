'use client';
import { Chat, useChat, type UseChatHelpers } from '@ai-sdk/react';
import type { ChatInit, ChatTransport, UIMessage } from 'ai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { porterChatOptions } from '../porter-chat-transport.js';
import { createPorterThread, loadPorterThread, PorterWireError } from '../porter-threads.js';
import { resolved, type PorterClientOptions } from '../wire-url.js';
import { noteApprovalCards } from './porter-tool-view.js';
import { putThreadInUrl, threadInUrl } from './thread-in-url.js';

/** The AI SDK chat settings a host may add; the thread, its messages and the transport are the hook's. */
type ChatSettings<M extends UIMessage> = Pick<
  ChatInit<M>,
  'onFinish' | 'onError' | 'onData' | 'onToolCall' | 'generateId' | 'messageMetadataSchema' | 'dataPartSchemas'
>;

export interface UsePorterThreadOptions<M extends UIMessage = UIMessage> extends PorterClientOptions, ChatSettings<M> {
  /**
   * The thread to open, when the host keeps the id itself (a route segment, its own state). Then
   * the address is left alone; `onThreadChange` says when the hook moved to another thread. Without
   * it (or null), the thread is the one in the address (`urlParam`), else a new one.
   */
  readonly threadId?: string | null | undefined;
  /** The query parameter holding the thread id (default `'thread'`); `false` keeps the id out of the address. */
  readonly urlParam?: string | false | undefined;
  /** Rejoin a turn still in flight when a thread opens (after a reload, in a second tab). Default true. */
  readonly resume?: boolean | undefined;
  /** Throttle, in milliseconds, for re-rendering while an answer streams (the AI SDK's `throttle`). */
  readonly throttle?: number | undefined;
  /** Called each time the hook settles on a thread: opened, created, or replacing one that was not found. */
  readonly onThreadChange?: ((thread: PorterThreadChange) => void) | undefined;
}

/** Which thread the hook settled on, and how. */
export interface PorterThreadChange {
  readonly threadId: string;
  /** True when the hook created it (none was asked for, `newThread()`, or the one asked for was not found). */
  readonly created: boolean;
  /** The id that was asked for but Porter does not know (deleted, another person's, mistyped); else null. */
  readonly notFoundThreadId: string | null;
}

/** Everything `useChat` returns for the thread, and the thread itself. */
export type UsePorterThreadResult<M extends UIMessage = UIMessage> = UseChatHelpers<M> & {
  /** The open thread's id; null until it is created or loaded. */
  readonly threadId: string | null;
  /** True once the thread is open and its stored messages are in `messages`: render the chat then. */
  readonly ready: boolean;
  /**
   * The thread id that was asked for (address or option) but not found, so a new thread replaced it;
   * null otherwise. Show it to say "that conversation is gone".
   */
  readonly notFoundThreadId: string | null;
  /**
   * Creates an empty thread and switches to it (the address too); the previous one stays stored.
   * If it cannot be created, `error` says why and the open thread stays.
   */
  newThread(): Promise<void>;
};

interface Opened<M extends UIMessage> {
  readonly threadId: string;
  readonly messages: M[];
  readonly created: boolean;
  readonly notFoundThreadId: string | null;
}

/** The key of an opening that creates a thread (no id is a valid key: ids are never empty). */
const CREATE = '';

/**
 * One Porter thread as a React chat: the AI SDK's `useChat` on Porter's transport, with the thread
 * created or loaded first. The id comes from `threadId`, else the address (`?thread=<id>`); with
 * neither, a new thread is created and its id written into the address in place, so a reload opens
 * the same conversation with its stored messages and rejoins a turn still in flight. An id Porter
 * does not know opens a new thread (`notFoundThreadId`). Approvals answered with
 * `addToolApprovalResponse` are sent as soon as every call of the answer has one.
 *
 * Safe under StrictMode (a double-run effect creates one thread) and in a server render (it reads
 * the address only in effects). Leaving the page does not stop a turn: Porter finishes it, and
 * the next visit rejoins it; `stop()` stops it.
 */
export function usePorterThread<M extends UIMessage = UIMessage>(options: UsePorterThreadOptions<M>): UsePorterThreadResult<M> {
  if (typeof options?.wire !== 'string') throw new TypeError('usePorterThread needs `wire`: where Porter is mounted, e.g. "/api/porter"');
  const latest = useRef(options);
  latest.current = options;
  const param = options.urlParam === undefined ? 'thread' : options.urlParam;
  const explicit = options.threadId ?? null;

  // Every request reads the options of the latest render: a fresh token in `headers` is used at once.
  // (`wire` is read when a thread opens.)
  const client = useMemo<Omit<PorterClientOptions, 'wire'>>(
    () => ({
      headers: async () => (await resolved(latest.current.headers)) ?? {},
      credentials: async () => (await resolved(latest.current.credentials)) ?? 'same-origin',
      fetch: (input, init) => (latest.current.fetch ?? globalThis.fetch)(input, init),
    }),
    [],
  );

  // The id in the address: undefined until read (after the first render, so a server render never reads it).
  const [urlThread, setUrlThread] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    if (param === false) return;
    const read = () => setUrlThread(threadInUrl(param));
    read();
    window.addEventListener('popstate', read);
    return () => window.removeEventListener('popstate', read);
  }, [param]);

  const [session, setSession] = useState<{ readonly threadId: string; readonly chat: Chat<M> } | null>(null);
  const [notFoundThreadId, setNotFound] = useState<string | null>(null);
  const [threadError, setThreadError] = useState<Error | null>(null);
  const current = useRef<string | null>(null);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const open = useCallback(
    async (wanted: string | null): Promise<Opened<M>> => {
      if (wanted !== null) {
        try {
          const thread = await loadPorterThread<M>({ ...client, wire: latest.current.wire, threadId: wanted });
          return { threadId: thread.id, messages: thread.messages, created: false, notFoundThreadId: null };
        } catch (error) {
          if (!(error instanceof PorterWireError && error.status === 404)) throw error;
        }
      }
      const threadId = await createPorterThread({ ...client, wire: latest.current.wire });
      return { threadId, messages: [], created: true, notFoundThreadId: wanted };
    },
    [client],
  );

  const adopt = useCallback(
    (opened: Opened<M>, fromAddress: boolean) => {
      if (!mounted.current) return;
      current.current = opened.threadId;
      const settings = latest.current;
      const chat = new Chat<M>({
        ...porterChatOptions<M>({ ...client, wire: settings.wire, threadId: opened.threadId }),
        messages: opened.messages,
        ...(settings.generateId ? { generateId: settings.generateId } : {}),
        ...(settings.messageMetadataSchema ? { messageMetadataSchema: settings.messageMetadataSchema } : {}),
        ...(settings.dataPartSchemas ? { dataPartSchemas: settings.dataPartSchemas } : {}),
        // The host's callbacks as of the latest render, not as of the thread's opening.
        onFinish: (event) => latest.current.onFinish?.(event),
        onError: (error) => latest.current.onError?.(error),
        onData: (part) => latest.current.onData?.(part),
        onToolCall: (call) => latest.current.onToolCall?.(call),
      });
      setSession({ threadId: opened.threadId, chat });
      setNotFound(opened.notFoundThreadId);
      setThreadError(null);
      if (fromAddress && typeof param === 'string') {
        putThreadInUrl(param, opened.threadId);
        setUrlThread(opened.threadId);
      }
      settings.onThreadChange?.({ threadId: opened.threadId, created: opened.created, notFoundThreadId: opened.notFoundThreadId });
    },
    [client, param],
  );

  // Which thread to open: the host's, else the address's (once read), else a new one.
  const fromAddress = explicit === null && param !== false;
  const known = !fromAddress || urlThread !== undefined;
  const wanted = explicit ?? (fromAddress ? (urlThread ?? null) : null);
  // The opening under way, kept across StrictMode's second run of the effect so it is not repeated.
  const opening = useRef<{ readonly key: string; readonly promise: Promise<Opened<M>> } | null>(null);
  useEffect(() => {
    if (!known) return;
    // Already there, or no particular thread asked for and one is open (it stays).
    if (current.current !== null && (wanted === current.current || wanted === null)) return;
    if (current.current !== null) {
      current.current = null;
      setSession(null);
    }
    const key = wanted ?? CREATE;
    let started = opening.current;
    if (started?.key !== key) {
      const promise = open(wanted);
      started = { key, promise };
      opening.current = started;
      const settled = () => {
        if (opening.current?.promise === promise) opening.current = null;
      };
      promise.then(settled, settled);
    }
    let live = true;
    started.promise.then(
      (opened) => live && adopt(opened, fromAddress),
      (error: unknown) => live && setThreadError(error instanceof Error ? error : new Error(String(error))),
    );
    return () => {
      live = false;
    };
  }, [known, wanted, fromAddress, open, adopt]);

  const newThread = useCallback(async () => {
    try {
      adopt(await open(null), explicit === null && param !== false);
    } catch (error) {
      // Said in `error`, like a thread that could not be opened; the open thread stays.
      if (mounted.current) setThreadError(error instanceof Error ? error : new Error(String(error)));
    }
  }, [open, adopt, explicit, param]);

  // Before a thread is open the chat is an idle stand-in whose requests fail, saying why.
  const [idle] = useState(() => new Chat<M>({ transport: NOT_READY as ChatTransport<M> }));
  const chat = useChat<M>({
    chat: session?.chat ?? idle,
    resume: (options.resume ?? true) && session !== null,
    ...(options.throttle !== undefined ? { throttle: options.throttle } : {}),
  });

  // Porter's approval cards ride beside the tool parts: noted so `PorterToolPart` finds them by the part alone.
  useMemo(() => noteApprovalCards(chat.messages), [chat.messages]);

  return {
    ...chat,
    // `id` is a getter on useChat's result: keep it one.
    get id() {
      return chat.id;
    },
    error: chat.error ?? threadError ?? undefined,
    threadId: session?.threadId ?? null,
    ready: session !== null,
    notFoundThreadId,
    newThread,
  };
}

/** The stand-in chat's transport: nothing is sent before the thread is open. */
const NOT_READY: ChatTransport<UIMessage> = {
  sendMessages: async () => {
    throw new Error('usePorterThread: the thread is not open yet; render the composer once `ready` is true');
  },
  reconnectToStream: async () => null,
};
