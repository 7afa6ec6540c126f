import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';
import { connectSdkV2 } from './door-client.js';

export const MODERN = '2026-07-28';

/**
 * The MCP SDK's v2 client on 2026-07-28, signed in through the door as `person`, with the official
 * Tasks extension requester (`@modelcontextprotocol/ext-tasks`) over it. The SDK's own codec has
 * no 2026 task wire shapes, so the requester sends tool calls and `tasks/*` through the raw
 * dispatch it asks the host for: one JSON-RPC POST to the door with the client's bearer and the
 * standard headers (`Mcp-Name` naming the tool or the task, as the extension's binding says).
 */
export async function connectTaskClient(door: URL, person: string) {
  const { client, provider } = await connectSdkV2(door, person, { versionNegotiation: { mode: { pin: MODERN } } });
  let id = 0;
  const rawDispatch: RawClientDispatch = async (request, options) => {
    const message = request as { method: string; params?: Record<string, unknown> };
    const name = message.params?.[message.method === 'tools/call' ? 'name' : 'taskId'];
    const headers = new Headers({
      authorization: `Bearer ${provider.tokens()!.access_token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': message.method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    });
    // The requester names the task itself on its follow-ups: its headers win.
    for (const [key, value] of Object.entries(options?.context?.headers ?? {})) headers.set(key, value);
    const response = await fetch(door, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: `tasks-${++id}`, ...message }),
      ...(options?.signal ? { signal: options.signal } : {}),
    });
    const body = (await response.json()) as { result?: never; error?: never };
    return body.error !== undefined ? { kind: 'error', error: body.error } : { kind: 'result', result: body.result! };
  };
  const session = createTaskSessionFromClient(client, {
    endpointId: door.href,
    rawDispatch,
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: { name: 'e2e-tasks', version: '1.0.0' }, clientCapabilities: {} },
  });
  return { client, provider, session };
}

/** One 2026-07-28 request as a client without the SDK sends it; `capabilities` are its per-request client capabilities. */
export async function modernRequest(
  door: URL,
  token: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown>,
): Promise<{ status: number; body: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } } }> {
  const name = params[method === 'tools/call' ? 'name' : 'taskId'];
  const response = await fetch(door, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          [PROTOCOL_VERSION_META_KEY]: MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    }),
  });
  return { status: response.status, body: (await response.json()) as never };
}
