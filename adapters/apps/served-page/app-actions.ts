import type { AppPageKit } from '../../shared/app-page-kit.js';
import type { ServedApp } from './served-app.js';
import { defined } from '../../../domain/defined.js';

/** What an action gathered from the page: a record from its fields, or the record it stands by. */
export interface ActionInput {
  readonly record?: Record<string, unknown>;
  readonly recordId?: string;
}

/** What running an action came to: whether it ran, and what to say beside what started it. */
export interface ActionOutcome {
  readonly done: boolean;
  readonly notice?: { readonly text: string; readonly tone: 'info' | 'error' };
}

/** What an action needs: the app, the bridge, a way to read a collection again, the kit's `cell`. */
export interface AppActionsDeps {
  readonly app: ServedApp;
  readonly ask: (op: string, payload?: Record<string, unknown>) => Promise<unknown>;
  readonly refresh: (collection: string) => Promise<void>;
  readonly cell: AppPageKit['cell'];
}

/**
 * Runs the app's action named `name` with what the page gathered, through the bridge, exactly as
 * the chrome's renderer does: a record action writes or deletes and reads the collection again (an
 * empty put or a delete of no record does nothing); a tool action says it ran, with its output, or
 * that it waits for the person's approval; a call to the app's own function says what it answered.
 * A refusal is said as an error. An action the app does not have does nothing.
 */
export async function runAction(deps: AppActionsDeps, name: string | undefined, input: ActionInput): Promise<ActionOutcome> {
  const { app, ask, refresh, cell } = deps;
  const action = name ? app.actions[name] : undefined;
  if (!action) return { done: false };
  try {
    if (action.kind === 'put-record' && action.collection) {
      if (!input.recordId && Object.keys(input.record ?? {}).length === 0) return { done: false };
      await ask('records.put', {
        collection: action.collection,
        ...defined({ recordId: input.recordId || undefined }),
        data: input.record ?? {},
      });
      await refresh(action.collection);
    } else if (action.kind === 'delete-record' && action.collection) {
      if (!input.recordId) return { done: false };
      await ask('records.delete', { collection: action.collection, recordId: input.recordId });
      await refresh(action.collection);
    } else if (action.kind === 'tool') {
      const answer = (await ask('action', {
        action: name,
        input: input.record ?? (input.recordId ? { recordId: input.recordId } : {}),
      })) as { status?: string; preview?: string; output?: unknown };
      if (answer?.status === 'parked')
        return {
          done: true,
          notice: { text: `Waiting for your approval: ${answer.preview ?? action.tool}. Answer it in Porter’s Approvals.`, tone: 'info' },
        };
      return { done: true, notice: { text: `Done: ${cell(answer?.output)}`.slice(0, 500), tone: 'info' } };
    } else if (action.kind === 'call' && typeof action.target === 'string') {
      const fn = /^fn:([A-Za-z][A-Za-z0-9_-]{0,63})$/.exec(action.target);
      if (fn)
        return {
          done: true,
          notice: { text: cell(await ask('fn', { name: fn[1], input: input.record ?? {} })).slice(0, 500) || 'Done.', tone: 'info' },
        };
    }
    return { done: true };
  } catch (error) {
    return { done: false, notice: { text: error instanceof Error ? error.message : String(error), tone: 'error' } };
  }
}
