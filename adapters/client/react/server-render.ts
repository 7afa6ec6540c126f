import type { UIMessage } from 'ai';
import { createElement, type ReactNode } from 'react';
import { PorterToolPart as PorterToolPartInTheBrowser, type PorterToolPartProps } from './porter-tool-part.js';
import {
  porterToolView,
  usePorterToolPart as usePorterToolPartInTheBrowser,
  type PorterToolView,
  type UsePorterToolPartOptions,
} from './porter-tool-view.js';
import {
  usePorterThread as usePorterThreadInTheBrowser,
  type UsePorterThreadOptions,
  type UsePorterThreadResult,
} from './use-porter-thread.js';

/*
 * porter-runtime/react as Node itself loads it, unbundled: a server render of a page bundled by
 * someone else. Next.js keeps porter-runtime out of its server bundle (`withPorter`), so Node loads
 * this entry with node_modules' React while the page renders with the copy Next ships: a hook
 * called here would find no dispatcher. These render what the browser's first render shows (a
 * thread not open yet) and call no hook; the browser bundle gets the real ones. Node with a DOM
 * (a host's component tests under jsdom or happy-dom) renders with one React and gets them too.
 */

const hasDom = (): boolean => typeof window !== 'undefined' && typeof document !== 'undefined';

const inTheBrowser = (what: string) => () => {
  throw new Error(`usePorterThread: ${what} works in the browser, after the thread is open (\`ready\`)`);
};

/** The thread as a server renders it: not open yet, no messages, every action refused. */
export function usePorterThread<M extends UIMessage = UIMessage>(options: UsePorterThreadOptions<M>): UsePorterThreadResult<M> {
  if (hasDom()) return usePorterThreadInTheBrowser(options);
  if (typeof options?.wire !== 'string') throw new TypeError('usePorterThread needs `wire`: where Porter is mounted, e.g. "/api/porter"');
  return {
    id: '',
    messages: [],
    status: 'ready',
    error: undefined,
    threadId: null,
    ready: false,
    notFoundThreadId: null,
    experimental_queuedMessages: [],
    setMessages: inTheBrowser('setMessages'),
    sendMessage: inTheBrowser('sendMessage'),
    regenerate: inTheBrowser('regenerate'),
    stop: inTheBrowser('stop'),
    resumeStream: inTheBrowser('resumeStream'),
    addToolResult: inTheBrowser('addToolResult'),
    addToolOutput: inTheBrowser('addToolOutput'),
    addToolApprovalResponse: inTheBrowser('addToolApprovalResponse'),
    clearError: inTheBrowser('clearError'),
    experimental_removeQueuedMessage: inTheBrowser('experimental_removeQueuedMessage'),
    experimental_sendQueuedMessageNow: inTheBrowser('experimental_sendQueuedMessageNow'),
    newThread: inTheBrowser('newThread'),
  };
}

/** A tool call's view as a server renders it: nothing being answered, approve and deny do nothing. */
export function usePorterToolPart(options: UsePorterToolPartOptions): PorterToolView {
  if (hasDom()) return usePorterToolPartInTheBrowser(options);
  return porterToolView(options, false, () => {});
}

/** Drawn in the browser only: a server render has no messages (`usePorterThread` above), so no tool calls. */
export function PorterToolPart(props: PorterToolPartProps): ReactNode {
  return hasDom() ? createElement(PorterToolPartInTheBrowser, props) : null;
}
