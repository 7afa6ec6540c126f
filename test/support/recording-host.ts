import { jwtVerify } from 'jose';
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

/** The subject of the HS256 bearer a recorded request carried, checked against `secret`. */
export async function bearerSubject(request: { headers: IncomingHttpHeaders }, secret: string): Promise<string | undefined> {
  const { payload } = await jwtVerify(String(request.headers.authorization).replace(/^Bearer /, ''), new TextEncoder().encode(secret));
  return payload.sub;
}
