import { z } from 'zod';
import { nextCursor } from './common-shapes.js';

export const Connection = z
  .object({ id: z.string(), toolkit: z.string(), status: z.enum(['initiated', 'active', 'failed', 'expired']) })
  .meta({ id: 'Connection' });

export const ConnectionList = z.object({ connections: z.array(Connection), nextCursor }).meta({ id: 'ConnectionList' });

export const ToolkitList = z
  .object({
    toolkits: z.array(
      z.object({
        toolkit: z.string().describe('The slug `POST /connections/initiate` takes.'),
        name: z.string().describe('What a person calls it.'),
      }),
    ),
  })
  .meta({ id: 'ToolkitList' });

export const Initiated = z
  .object({ id: z.string(), redirectUrl: z.string().describe("The broker's page: open it, then poll the connection.") })
  .meta({ id: 'ConnectionInitiated' });
