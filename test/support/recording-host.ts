import type { IncomingHttpHeaders } from 'node:http';
import { serve, type RunningServer } from './http-server.js';

/** A local stand-in for the host's API that records what reached it. */
export async function recordingHost(): Promise<RunningServer & { requests: Array<{ url: string; headers: IncomingHttpHeaders }> }> {
  const requests: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server = await serve((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true }));
  });
  return Object.assign(server, { requests });
}
