import { z } from 'zod';
import { TOOLKIT } from '../../../domain/connections/connection.js';
import { HTTP_URL } from '../../../domain/http-url.js';
import type { ConnectionsUseCases } from '../../../ports/use-cases/connections.js';
import { Connection, ConnectionList, Initiated, ToolkitList } from '../shapes/connection-shapes.js';
import { idParam } from '../shapes/path-params.js';
import { json, jsonBody } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { callerRoutes } from './caller-routes.js';

/** The host's page the broker returns the person to: http(s), no embedded credentials. */
const callbackUrl = z
  .string()
  .max(2048)
  .regex(HTTP_URL, 'must be an absolute http(s) URL on the host, without credentials')
  .describe("The host's page the broker returns the person to: an absolute http(s) URL without credentials.");

const initiateBody = z.strictObject({
  toolkit: z
    .string()
    .regex(TOOLKIT, 'must be a toolkit slug such as "github" (lowercase letters, digits, - and _)')
    .describe(
      'A toolkit slug such as `github`. One the connection broker does not know is refused by it: 400 `validation` naming the broker.',
    ),
  callbackUrl,
});

/** Connections: initiate, poll, list, delete. Owner-scoped; the broker owns the OAuth redirect. */
export function connectionRoutes(connections: ConnectionsUseCases): WireRoutes {
  // Without a connection broker every route answers not-implemented.
  const connection = callerRoutes(connections, { param: idParam('connection'), key: 'connectionId', errors: ['not-implemented'] });
  return principalFamily('Connections', [
    connection.list('/connections', 'list', {
      id: 'listConnections',
      summary: "List the caller's connected accounts",
      responses: { 200: json('Connections.', ConnectionList) },
    }),
    // The literal routes are registered ahead of /connections/:id.
    connection.get('/connections/toolkits', 'toolkits', {
      id: 'listToolkits',
      summary: 'List the toolkits the connection broker can connect',
      description: 'What to offer a person to pick from, by name; the slug is what `POST /connections/initiate` takes.',
      responses: { 200: json('Toolkits, by name.', ToolkitList) },
      errors: ['unavailable'],
    }),
    connection.post('/connections/initiate', 'initiate', {
      id: 'initiateConnection',
      summary: 'Start connecting a third-party account',
      description:
        "Open `redirectUrl` (the broker's page, which owns the OAuth redirect), then poll `GET /connections/{id}` until the status settles.",
      body: jsonBody(initiateBody),
      responses: { 201: json('The connection, initiated.', Initiated) },
      errors: ['unavailable'],
    }),
    connection.get('/connections/:id', 'get', {
      id: 'getConnection',
      summary: 'Poll a connection',
      responses: { 200: json('The connection.', Connection) },
      errors: ['unavailable'],
    }),
    connection.delete('/connections/:id', 'remove', {
      id: 'deleteConnection',
      summary: 'Disconnect an account',
      errors: ['unavailable'],
    }),
  ]);
}
