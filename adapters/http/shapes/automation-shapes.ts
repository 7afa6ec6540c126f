import { z } from 'zod';
import { isoTime, nextCursor, UiMessage } from './common-shapes.js';

const Trigger = z
  .union([
    z.object({ kind: z.literal('schedule'), cron: z.string(), timezone: z.string().optional() }),
    z.object({ kind: z.literal('webhook'), source: z.string() }),
  ])
  .meta({ id: 'Trigger' });

export const Automation = z
  .object({
    id: z.string().describe('The `atm_` id.'),
    name: z.string(),
    trigger: Trigger,
    task: z.object({ prompt: z.string(), tools: z.array(z.string()).optional() }),
    armed: z.boolean(),
    armedAt: isoTime.nullable(),
    owner: z.string().describe("The owner's subject: runs act as them, with their standing grants only."),
    createdAt: isoTime,
    updatedAt: isoTime,
    nextRunAt: isoTime.nullable().optional().describe('For an armed schedule: when it fires next.'),
  })
  .meta({ id: 'Automation' });

export const AutomationList = z.object({ automations: z.array(Automation), nextCursor }).meta({ id: 'AutomationList' });

export const ArmResult = z
  .object({
    automation: Automation,
    asks: z.array(z.object({ approvalId: z.string(), tool: z.string() })).describe('The standing-grant asks now waiting in `/approvals`.'),
  })
  .meta({ id: 'ArmResult' });

const runFields = {
  id: z.string().describe('The `run_` id.'),
  automationId: z.string(),
  state: z.enum(['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled']),
  owner: z.string(),
  startedBy: z.string().describe('The reserved subject that started it: `porter:scheduler` or `porter:webhook:<source>`.'),
  cause: z.union([
    z.object({ kind: z.literal('schedule'), slot: z.string() }),
    z.object({ kind: z.literal('webhook'), source: z.string(), deliveryId: z.string() }),
  ]),
  createdAt: isoTime,
  startedAt: isoTime.nullable(),
  endedAt: isoTime.nullable(),
  stopRequestedAt: isoTime.nullable(),
  ending: z.enum(['completed', 'stopped', 'interrupted', 'error']).nullable(),
  error: z.string().nullable(),
};

export const Run = z.object(runFields).meta({ id: 'Run' });

export const RunList = z.object({ runs: z.array(Run), nextCursor }).meta({ id: 'RunList' });

export const RunDetail = z
  .object({ ...runFields, messages: z.array(UiMessage).describe('What the agent said and did.') })
  .meta({ id: 'RunDetail' });

export const RunIds = z.object({ runIds: z.array(z.string()) }).meta({ id: 'RunIds' });
