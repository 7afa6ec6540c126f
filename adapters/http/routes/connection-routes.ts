import { z } from 'zod';
import { isToolkit } from '../../../domain/connections/connection.js';
import type { ConnectionsUseCases } from '../../../ports/use-cases/connections.js';
import { Connection, ConnectionList, Initiated } from '../shapes/connection-shapes.js';
import { idParam } from '../shapes/path-params.js';
import { json, jsonBody } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { callerRoutes } from './caller-routes.js';

/** The host's page the broker returns the person to: http(s), no embedded credentials. */
const callbackUrl = z
  .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL on the host' })
  .max(2048)
  // zod runs this even when the URL check above failed, and `new URL` throws on what that check
  // refused (a port past 65535): an unparseable value is that check's issue, not a crash.
  .refine((value) => {
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return url.username === '' && url.password === '';
  }, 'must not carry credentials');

const initiateBody = z.strictObject({
  toolkit: z.string().refine(isToolkit, 'must be a toolkit slug such as "github" (lowercase letters, digits, - and _)'),
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
    // The literal route is registered ahead of /connections/:id.
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
