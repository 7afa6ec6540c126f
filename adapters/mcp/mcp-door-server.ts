import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  UrlElicitationRequiredError,
  type AuthInfo,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import type { DoorCaller } from '../../domain/door/door-caller.js';
import type { DoorTool, DoorToolResult, DoorTransportUseCases } from '../../ports/use-cases/door.js';
import { RATE_LIMITED, type RateLimitedRequests } from './rate-limited-requests.js';
import {
  AppsAwareServer,
  declaresMcpApps,
  listAppResources,
  notOffered,
  readAppResource,
  showingTheApp,
  withAppView,
  type AppPage,
  type DoorAppsOffer,
} from './mcp-apps.js';
import { createTaskResult, declaresTasks, serveTasks, startedRunResult, TASKS_EXTENSION, type RunPages } from './door-tasks.js';
import { defined } from '../../domain/defined.js';

export interface DoorServerInfo {
  readonly name: string;
  readonly version: string;
  /** Shown to the outside agent when it connects. */
  readonly instructions?: string;
  /** How an app is drawn as an MCP Apps view; with the door's apps use cases, apps are offered to clients that declare the extension. */
  readonly appPage?: AppPage;
}

/**
 * One MCP server (the SDK's low-level `Server`) per door session, or per request on the stateless
 * 2026-07-28 revision (`session` is then the guard's session for the person and client). Each request carries the caller
 * it was admitted as (see `doorAuthInfo`): the transport re-admits on every request, so a tool call
 * always runs as the person the host resolves now, even beside other requests on the session.
 * A call over a breaker or a budget is refused with a JSON-RPC error (RATE_LIMITED) saying when to
 * retry, noted in `rateLimited` so the transport can answer it with HTTP 429. On the `modern`
 * revision it offers the Tasks extension: a run started through the door is a task (door-tasks.ts).
 */
export function doorServer(
  info: DoorServerInfo,
  door: DoorTransportUseCases,
  session: string,
  rateLimited: RateLimitedRequests,
  era: 'modern' | 'legacy' = 'legacy',
): Server {
  const offer: DoorAppsOffer | null = door.apps && info.appPage ? { apps: door.apps, page: info.appPage } : null;
  // The Tasks extension is 2026-07-28's (SEP-2663): offered on that revision alone.
  const extensions = era === 'modern' ? { extensions: { [TASKS_EXTENSION]: {} } } : {};
  const server = new (offer ? AppsAwareServer : Server)(
    { name: info.name, version: info.version },
    {
      capabilities: { tools: { listChanged: false }, ...defined({ resources: offer ? { listChanged: false } : undefined }), ...extensions },
      ...defined({ instructions: info.instructions || undefined }),
    },
  );
  server.setRequestHandler('tools/list', async (_request, ctx) => {
    const tools = (await door.listTools.execute()).map(toMcpTool);
    return { tools: offer && declaresApps(ctx, server) ? tools.map((tool) => withAppView(tool, offer)) : tools };
  });
  if (offer) {
    server.setRequestHandler('resources/list', (_request, ctx) => listAppResources(offer, callerOf(ctx), declaresApps(ctx, server)));
    server.setRequestHandler('resources/templates/list', (_request, ctx) => {
      if (!declaresApps(ctx, server)) throw notOffered();
      return { resourceTemplates: [] };
    });
    server.setRequestHandler('resources/read', (request, ctx) =>
      readAppResource(offer, callerOf(ctx), request.params.uri, declaresApps(ctx, server)),
    );
  }
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name } = request.params;
    const answered = Object.keys(ctx.mcpReq.inputResponses ?? {});
    const continues = answered.find((key) => key.startsWith(APPROVAL_KEY))?.slice(APPROVAL_KEY.length);
    const result = await door.callTool.execute({
      caller: callerOf(ctx),
      session,
      tool: name,
      input: request.params.arguments ?? {},
      signal: ctx.mcpReq.signal,
      ...defined({ continues: continues || undefined }),
    });
    // The bare message on the wire: the v1 client prefixes what it reads with `MCP error <code>:` itself.
    if (result.kind === 'unknown-tool') throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    if (result.kind === 'rate-limited') {
      rateLimited.note(ctx.mcpReq.id, result.retryAfterSeconds);
      throw rateLimitError(result);
    }
    const pages = pagesOf(ctx);
    // A run started: a task for a client that follows tasks, else its id and where to follow it.
    // The SDK types `tools/call` without the extension's `resultType: 'task'`, which its 2026
    // codec lets through for `tools/call` as the SEP allows.
    if (result.kind === 'ran' && result.task)
      return declaresTasks(modernCapabilities(ctx))
        ? (createTaskResult(result.task, pages) as CallToolResult)
        : server.projectCallToolResult(startedRunResult(result.task, pages), undefined);
    const asked = pages && personAsk(result, pages);
    // A retry that answered this very ask, still waiting on the person, reads the plain answer: asking again would loop.
    if (asked && !answered.includes(asked.key) && declaresUrlElicitation(ctx, server)) return askThePerson(ctx, asked);
    const answer = toCallResult(result, pages);
    // Opening an app, for a host that renders apps: the result carries the app to draw.
    const shown =
      offer && name === offer.apps.openTool && declaresApps(ctx, server)
        ? await showingTheApp(offer, callerOf(ctx), request.params.arguments, answer)
        : answer;
    return server.projectCallToolResult(shown, undefined);
  });
  serveTasks(server, door, { caller: callerOf, capabilities: modernCapabilities, pages: pagesOf });
  return server;
}

/** Whether the client declared MCP Apps: on 2026-07-28 in the request's own `_meta`, on a 2025-11-25 session in its `initialize`. */
function declaresApps(ctx: ServerContext, server: Server): boolean {
  return declaresMcpApps(modernCapabilities(ctx) ?? server.getClientCapabilities());
}

/** A page the person opens before the call can go on (URL-mode elicitation), keyed by what it answers. */
interface PersonAsk {
  readonly key: string;
  readonly url: string;
  readonly message: string;
}

const APPROVAL_KEY = 'porter-approval:';

function personAsk(result: DoorToolResult, pages: PersonPages): PersonAsk | null {
  if (result.kind === 'parked')
    return {
      key: `${APPROVAL_KEY}${result.approvalId}`,
      url: pages.approvals,
      message: `Approve this ${result.risk} action: ${result.preview}`,
    };
  if (result.kind === 'failed' && result.reason === 'connection-required')
    return {
      key: 'porter-connect',
      url: pages.connections,
      message: result.error.replace(/ \(the chat offers a Connect button\).*$/, '.'),
    };
  return null;
}

/**
 * Whether the client declared URL-mode elicitation: on 2026-07-28 in the request's own `_meta`, on
 * a 2025-11-25 session in its `initialize`.
 */
function declaresUrlElicitation(ctx: ServerContext, server: Server): boolean {
  return (modernCapabilities(ctx) ?? server.getClientCapabilities())?.elicitation?.url !== undefined;
}

/** The client capabilities a 2026-07-28 request carries in its `_meta` envelope; undefined on a 2025-11-25 session. */
function modernCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  // The SDK types the lifted envelope without its keys.
  return (ctx.mcpReq.envelope as Record<string, ClientCapabilities | undefined> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
}

/**
 * Sends the person to the page, as the request's revision does it: on 2026-07-28 an `input_required`
 * result (the client opens the URL, then retries with its answer); on a 2025-11-25 session the
 * URL-elicitation-required error (-32042), after which the client retries the call.
 */
function askThePerson(ctx: ServerContext, ask: PersonAsk): InputRequiredResult {
  if (modernCapabilities(ctx) !== undefined)
    return inputRequired({ inputRequests: { [ask.key]: inputRequired.elicitUrl({ message: ask.message, url: ask.url }) } });
  throw new UrlElicitationRequiredError(
    [{ mode: 'url', message: ask.message, url: ask.url, elicitationId: ask.key }],
    `${ask.message}. Open ${ask.url}, then call this tool again with the same arguments.`,
  );
}

const CALLER = 'porterDoorCaller';
const PAGES = 'porterDoorPages';

/** The chrome's pages where the person answers what an outside agent cannot: absolute URLs. */
export interface PersonPages extends RunPages {
  readonly approvals: string;
  readonly connections: string;
}

/** The chrome's pages from `door.chromeUrl` (a path resolves against the door's origin); its routes live in the hash. */
export function personPagesOf(chromeUrl: string, origin: string): PersonPages {
  const chrome = new URL(chromeUrl, origin).href;
  return { approvals: `${chrome}#/approvals`, connections: `${chrome}#/connections`, runs: `${chrome}#/runs` };
}

/**
 * The request's `AuthInfo` for the SDK: the bearer, the caller the transport admitted it as, and
 * where its person answers (`pages`, null when the chrome's place is not configured).
 */
export function doorAuthInfo(token: string, caller: DoorCaller, pages: PersonPages | null = null): AuthInfo {
  return {
    token,
    clientId: caller.clientId ?? '',
    scopes: caller.scope.split(' ').filter(Boolean),
    ...defined({ expiresAt: caller.expiresAt }),
    extra: { [CALLER]: caller, [PAGES]: pages },
  };
}

function pagesOf(ctx: ServerContext): PersonPages | null {
  return (ctx.http?.authInfo?.extra?.[PAGES] as PersonPages | null | undefined) ?? null;
}

function callerOf(ctx: ServerContext): DoorCaller {
  const caller = callerOfAuthInfo(ctx.http?.authInfo);
  // Every request reaches the server through the transport, which admits it first.
  if (!caller) throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error');
  return caller;
}

/** The caller a request was admitted as, from the `AuthInfo` the transport handed the SDK. */
export function callerOfAuthInfo(authInfo: AuthInfo | undefined): DoorCaller | null {
  return (authInfo?.extra?.[CALLER] as DoorCaller | undefined) ?? null;
}

function toMcpTool(tool: DoorTool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { ...tool.inputSchema, type: 'object' } as Tool['inputSchema'],
    annotations: { ...tool.hints },
  };
}

/**
 * A call refused over a breaker or a budget. The spec keeps tool results with `isError` for a tool
 * that ran and failed; this call was refused before any tool ran, as the door's own rate limit,
 * so it is a JSON-RPC error (the request refused), carrying which budget and when to retry for an
 * agent and its client to back off by.
 */
export function rateLimitError(result: Extract<DoorToolResult, { kind: 'rate-limited' }>): ProtocolError {
  const { budget, retryAfterSeconds } = result;
  return new ProtocolError(RATE_LIMITED, `Rate limited. ${result.error}`, {
    status: 'rate-limited',
    budget,
    ...defined({ retryAfterSeconds: retryAfterSeconds ?? undefined }),
  });
}

/**
 * What the outside agent reads back. Anything that did not run is an error result saying why and
 * what to do: for what only the person can answer (an approval, a connection), where they answer
 * it (`pages`) and that the identical call, retried after, runs.
 */
export function toCallResult(
  result: Exclude<DoorToolResult, { kind: 'unknown-tool' | 'rate-limited' }>,
  pages: PersonPages | null = null,
): CallToolResult {
  switch (result.kind) {
    case 'ran': {
      const text = typeof result.output === 'string' ? result.output : JSON.stringify(result.output ?? null);
      const structured = isPlainObject(result.output) ? { structuredContent: result.output } : {};
      return { content: [{ type: 'text', text }], ...structured };
    }
    case 'parked':
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text:
              `Not done yet: the person must approve this ${result.risk} action (approval ${result.approvalId}: ${result.preview}). ` +
              (pages ? `Ask them to open ${pages.approvals} and approve it` : 'Ask them to approve it in the app') +
              ', then call this tool again with exactly the same arguments: that call runs the approved action once.',
          },
        ],
        structuredContent: {
          status: 'approval-required',
          approvalId: result.approvalId,
          toolCallId: result.toolCallId,
          risk: result.risk,
          preview: result.preview,
          ...defined({ approvalUrl: pages ? pages.approvals : undefined }),
        },
      };
    case 'failed':
      if (result.reason === 'connection-required')
        return {
          isError: true,
          content: [
            {
              type: 'text',
              // The guard's words name the chat's Connect button, which an outside agent's person does not see.
              text: pages
                ? result.error.replace(
                    / \(the chat offers a Connect button\), then try again\.$/,
                    ` at ${pages.connections}, then call this tool again with the same arguments.`,
                  )
                : result.error,
            },
          ],
          structuredContent: { status: 'connection-required', ...defined({ connectUrl: pages ? pages.connections : undefined }) },
        };
      return { isError: true, content: [{ type: 'text', text: result.code ? `${result.code}: ${result.error}` : result.error }] };
    case 'blocked':
      return { isError: true, content: [{ type: 'text', text: result.reason }] };
    case 'invalid':
      return { isError: true, content: [{ type: 'text', text: `Invalid arguments: ${result.issues.join('; ')}` }] };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
