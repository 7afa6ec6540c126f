import { z } from 'zod';
import { isoTime, nextCursor } from './common-shapes.js';

export const Status = z
  .object({
    version: z.string().describe("Porter's version."),
    blocks: z.object({
      store: z.enum(['memory', 'sqlite', 'postgresql']),
      agent: z.boolean(),
      actions: z.boolean(),
      guard: z.boolean(),
      apps: z.boolean(),
      automations: z.boolean(),
      sandbox: z.union([z.enum(['e2b', 'cloud', 'custom']), z.literal(false)]),
      model: z.enum(['custom', 'ladder']),
      mcp: z.union([z.enum(['local', 'broker']), z.literal(false)]),
      connections: z.union([z.enum(['byo', 'cloud']), z.literal(false)]),
    }),
  })
  .meta({ id: 'Status' });

/** One audit event of the caller's. */
const ActivityEvent = z.object({
  id: z.string(),
  at: isoTime,
  subject: z.string(),
  action: z.string().describe('What happened, e.g. `webhook.verification-failed`.'),
  outcome: z.string().describe('How it ended, e.g. `act-as-subject-mismatch`.'),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const ActivityPage = z
  .object({ events: z.array(ActivityEvent), nextCursor })
  .meta({ id: 'ActivityPage', description: "The caller's audit events." });

export const SyncImpact = z
  .object({
    tools: z.array(z.string()),
    families: z
      .record(z.string(), z.object({ total: z.number().int(), byTool: z.record(z.string(), z.number().int()) }))
      .describe('By family (`apps`, `automations`, `grants`); unmounted families are absent.'),
  })
  .meta({ id: 'SyncImpact' });

export const PresentCheck = z
  .object({ baseUrlSet: z.boolean(), reached: z.boolean(), authorization: z.boolean(), cookie: z.boolean() })
  .meta({ id: 'PresentCheck' });

export const ActAsCheck = z
  .object({ configured: z.boolean(), minted: z.boolean(), accepted: z.boolean(), subjectMatches: z.boolean() })
  .meta({ id: 'ActAsCheck' });
