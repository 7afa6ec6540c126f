import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * The anchor: the MCP SDK on a bare Node server, exposing the same `notes_list` tool with the same
 * transport settings as the door (stateful sessions, JSON responses), and nothing else: no auth, no
 * guard, no store (unless `beforeEach` reads one).
 */
export async function bareMcpServer(
  /** Runs before each request is handed to the transport (a bearer check); a throw answers 401. */
  beforeEach?: (req: IncomingMessage) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const notes: string[] = [];
  const http: HttpServer = createServer((req, res) => {
    void (async () => {
      if (beforeEach) {
        try {
          beforeEach(req);
        } catch {
          res.writeHead(401).end();
          return;
        }
      }
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? transports.get(id) : undefined;
      if (!transport) {
        const fresh = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          enableJsonResponse: true,
          onsessioninitialized: (sid) => void transports.set(sid, fresh),
        });
        const server = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, async () => ({
          tools: [
            {
              name: 'notes_list',
              description: 'List notes',
              inputSchema: { type: 'object', properties: {} },
              annotations: { readOnlyHint: true },
            },
          ],
        }));
        server.setRequestHandler(CallToolRequestSchema, async () => {
          const output = { notes: [...notes] };
          return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
        });
        await server.connect(fresh);
        transport = fresh;
      }
      await transport.handleRequest(req, res);
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      for (const transport of transports.values()) await transport.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
