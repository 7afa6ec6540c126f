import { z } from 'zod';
import { CONNECTION_STATUSES, type ConnectionPrimitives, type ConnectionStatus } from '../../domain/connections/connection.js';

/** The shape connections are stored in; the book checks every row it reads against it. */
export const connectionShape = z.object({
  id: z.string(),
  owner: z.string(),
  toolkit: z.string(),
  status: z.enum(CONNECTION_STATUSES as [ConnectionStatus, ...ConnectionStatus[]]),
  broker: z.string(),
  brokerRef: z.string().nullable(),
  callbackUrl: z.string(),
  createdAt: z.string(),
  initiationExpiresAt: z.string(),
  updatedAt: z.string(),
}) satisfies z.ZodType<ConnectionPrimitives>;
