import { z } from 'zod';
import { runSummary } from './run-shapes.js';

const trigger = z.union([
  z.object({ kind: z.literal('schedule'), cron: z.string(), timezone: z.string().optional() }),
  z.object({ kind: z.literal('webhook'), source: z.string() }),
]);
/** An automation as the wire shows it. */
export const automation = z.object({
  id: z.string(),
  name: z.string(),
  trigger,
  task: z.object({ prompt: z.string(), tools: z.array(z.string()).optional() }),
  armed: z.boolean(),
  nextRunAt: z.string().nullable().optional(),
  retry: z.object({ max: z.number(), backoffSeconds: z.number().optional() }).optional(),
  concurrency: z.object({ limit: z.number(), whenBusy: z.string() }).optional(),
  notify: z.object({ url: z.string() }).nullable().optional(),
});
export type Automation = z.output<typeof automation>;
/** A created or changed automation: with the completion webhook's secret when one was minted. */
export const savedAutomation = automation.extend({ notifySecret: z.string().optional() });
export type SavedAutomation = z.output<typeof savedAutomation>;
export const automationList = z.object({ automations: z.array(automation), nextCursor: z.string().nullable().optional() });
/** What arming answers: the automation, and the standing permissions it still asks for. */
export const armResult = z.object({ automation, asks: z.array(z.object({ approvalId: z.string(), tool: z.string() })) });
const run = runSummary.extend({ attempts: z.array(z.object({ number: z.number() })).optional() });
export type ListedRun = z.output<typeof run>;
export const runList = z.object({ runs: z.array(run), nextCursor: z.string().nullable().optional() });
export const toolList = z.object({
  tools: z.array(z.object({ name: z.string(), description: z.string(), risk: z.string(), egress: z.boolean().optional() })),
});
