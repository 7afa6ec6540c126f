import { z } from 'zod';
import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type Result,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { DoorCaller } from '../../domain/door/door-caller.js';
import type { DoorTask, DoorTransportUseCases } from '../../ports/use-cases/door.js';
import { defined } from '../../domain/defined.js';

/** The Tasks extension of MCP 2026-07-28 (SEP-2663): a `tools/call` may answer with a task the client polls. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * How often a client is asked to poll `tasks/get`. A run takes seconds to minutes; each poll is
 * one owner-scoped store read on whichever instance the client reaches.
 */
export const POLL_INTERVAL_MS = 1_000;

/** Where the person follows a run in the chrome, when its place is configured: `#/runs/<id>` appended. */
export interface RunPages {
  readonly runs: string;
}

/** What the task handlers need from the request beside the door: who asks, their capabilities, and the chrome's pages. */
export interface TaskRequestView {
  caller(ctx: ServerContext): DoorCaller;
  /** The client capabilities a 2026-07-28 request carries; undefined on a 2025-11-25 session. */
  capabilities(ctx: ServerContext): ClientCapabilities | undefined;
  pages(ctx: ServerContext): RunPages | null;
}

/** Whether this request's client declared the Tasks extension (only a 2026-07-28 request can). */
export function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** `tools/call` answered with the task (`resultType: "task"`): the run is already in the store, so `tasks/get` finds it anywhere. */
export function createTaskResult(task: DoorTask, pages: RunPages | null): Result {
  return { resultType: 'task', ...taskOf(task, pages) };
}

/**
 * `tools/call` answered for a client that follows no tasks: the run started, its id, and where
 * to follow it (the chrome's run page, `GET /runs/:id` on the wire).
 */
export function startedRunResult(task: DoorTask, pages: RunPages | null): CallToolResult {
  const page = pages ? `${pages.runs}/${encodeURIComponent(task.taskId)}` : null;
  return {
    content: [
      {
        type: 'text',
        text:
          `Started run ${task.taskId} of automation ${task.automationId}; it goes on in the background` +
          (page ? `. The person can follow it at ${page}.` : ' and the person can follow it among the automation’s runs.'),
      },
    ],
    structuredContent: {
      runId: task.taskId,
      automationId: task.automationId,
      state: task.state,
      ...defined({ runUrl: page || undefined }),
    },
  };
}

/** The params of `tasks/get`, `tasks/cancel` and `tasks/update`; made once, not per server (a server is built per request). */
const TASK_PARAMS = z.looseObject({ taskId: z.string().max(200) });

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` (SEP-2663) on the door's server. Each reads the
 * run from the store as the person the request was admitted as: a task id that is not one of their
 * runs started through the door is "not found" (-32602), whether it is someone else's or nobody's.
 * A client that did not declare the extension on the request is refused with -32021, and a
 * 2025-11-25 session, whose tasks are another protocol, finds no such method.
 */
export function serveTasks(server: Server, door: DoorTransportUseCases, view: TaskRequestView): void {
  const asked = TASK_PARAMS;
  server.setRequestHandler('tasks/get', { params: asked }, async ({ taskId }, ctx) => {
    const task = await answerTask(view, ctx, () => door.getTask.execute({ caller: view.caller(ctx), taskId }));
    return taskOf(task, view.pages(ctx));
  });
  server.setRequestHandler('tasks/cancel', { params: asked }, async ({ taskId }, ctx) => {
    await answerTask(view, ctx, () => door.cancelTask.execute({ caller: view.caller(ctx), taskId }));
    return {};
  });
  // A run never asks the client for input (its approvals are the person's, in the chrome), so
  // there is never an outstanding request: responses to a known task are acknowledged and ignored.
  server.setRequestHandler('tasks/update', { params: asked }, async ({ taskId }, ctx) => {
    await answerTask(view, ctx, () => door.getTask.execute({ caller: view.caller(ctx), taskId }));
    return {};
  });
}

/**
 * A task the client asked about, for a client that declared the extension on 2026-07-28; found
 * by `find` (a module function: a server, and so this, is made per request).
 */
async function answerTask(view: TaskRequestView, ctx: ServerContext, find: () => Promise<DoorTask | null>): Promise<DoorTask> {
  const capabilities = view.capabilities(ctx);
  if (capabilities === undefined) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
  if (!declaresTasks(capabilities))
    throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
  const task = await find();
  if (!task) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');
  return task;
}

/** A run as the extension's task: working until it ends; a run that failed is a tool result with `isError`. */
function taskOf(task: DoorTask, pages: RunPages | null): Result {
  const base = {
    taskId: task.taskId,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    // Runs are kept as long as the deployment keeps them: no expiry of the task's own.
    ttlMs: null,
    pollIntervalMs: POLL_INTERVAL_MS,
  };
  const page = pages ? ` (${pages.runs}/${encodeURIComponent(task.taskId)})` : '';
  switch (task.state) {
    case 'queued':
      return { ...base, status: 'working', statusMessage: `Queued: it begins once its automation is free${page}` };
    case 'running':
      return { ...base, status: 'working', statusMessage: `Running${page}` };
    case 'waiting':
      return {
        ...base,
        status: 'working',
        statusMessage: `Waiting for the person to approve a step of the run${pages ? ` on their run page${page}` : ''}`,
      };
    case 'succeeded':
    case 'failed': {
      // The SEP keeps `failed` for JSON-RPC errors: a run that failed is a tool result that says so.
      const words = task.summary ?? (task.state === 'succeeded' ? 'The run succeeded.' : 'The run failed.');
      // The tool call's own result as 2026-07-28 words it, discriminator included.
      const result: CallToolResult & { resultType: 'complete' } = {
        resultType: 'complete',
        content: [{ type: 'text', text: task.state === 'succeeded' ? words : `The run failed: ${words}` }],
        structuredContent: { runId: task.taskId, automationId: task.automationId, state: task.state, summary: task.summary },
        ...defined({ isError: task.state === 'failed' ? true : undefined }),
      };
      return { ...base, status: 'completed', statusMessage: task.state === 'succeeded' ? 'The run succeeded' : 'The run failed', result };
    }
    case 'cancelled':
      return { ...base, status: 'cancelled', statusMessage: task.summary ?? 'The run was stopped' };
    case 'skipped':
      return { ...base, status: 'cancelled', statusMessage: 'Skipped: its automation was busy and its concurrency says skip' };
  }
}
