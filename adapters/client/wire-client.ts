import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './wire-types.js';
import { resolved, type PorterClientOptions } from './wire-url.js';

/** Every path of the wire, relative to where it is mounted, with its operations' parameters, bodies and answers. */
export type WirePaths = paths;
/** The wire's named bodies: `WireSchemas['Approval']`, `WireSchemas['Automation']`, `WireSchemas['ErrorEnvelope']`, … */
export type WireSchemas = components['schemas'];
/** Every operation by its `operationId`: `WireOperations['decideApproval']`. */
export type WireOperations = operations;
/** openapi-fetch's client over the wire's paths: `GET`, `POST`, `PUT`, `PATCH`, `DELETE`, each answering `{ data, error, response }`. */
export type WireClient = Client<WirePaths, 'application/json'>;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A typed client of Porter's wire (openapi-fetch over types generated from the wire's OpenAPI
 * document): `client.GET('/approvals')`, `client.POST('/approvals/{id}/decide', { params: { path:
 * { id } }, body: { approve: true } })`. Each call answers openapi-fetch's `{ data, error, response }`:
 * `data` typed by the route's success answer, `error` by its error envelope. Headers (a value or a
 * function read on every request) and credentials are the chat transport's. A state-changing call
 * without a body still goes as `application/json`, which the wire's CSRF floor asks of a request
 * that carries cookies.
 */
export function createWireClient(options: PorterClientOptions): WireClient {
  const send = options.fetch ?? globalThis.fetch;
  return createClient<WirePaths, 'application/json'>({
    baseUrl: options.wire.replace(/\/+$/, ''),
    fetch: async (request) => {
      const headers = new Headers(request.headers);
      new Headers(await resolved(options.headers)).forEach((value, name) => headers.set(name, value));
      if (STATE_CHANGING.has(request.method) && !headers.has('content-type')) headers.set('content-type', 'application/json');
      const credentials = (await resolved(options.credentials)) ?? 'same-origin';
      return send(new Request(request, { headers, credentials }));
    },
  });
}
