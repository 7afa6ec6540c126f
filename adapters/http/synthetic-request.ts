import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { SyntheticRequestFactory, WireRequest } from '../../ports/wire-request.js';

/** A request that never crossed the network, shaped like one that did, for the doctor's checks. */
export const synthesizeRequest: SyntheticRequestFactory = ({ method, path, headers }) => {
  const raw = new IncomingMessage(new Socket());
  raw.method = method;
  raw.url = path;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  Object.assign(raw.headers, lower);
  const cookies = parseCookies(lower.cookie ?? '');
  const request: WireRequest = {
    method,
    url: path,
    path,
    headers: lower,
    cookie: (name) => cookies.get(name),
    ip: '127.0.0.1',
    secure: false,
    raw,
  };
  return request;
};

function parseCookies(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies.set(part.slice(0, eq).trim(), decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return cookies;
}
