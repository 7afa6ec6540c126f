import { z } from 'zod';
import { Forbidden } from '../../domain/errors.js';
import { RUN_NOW_VENUES, type RunNowVenue } from '../../domain/runs/run.js';
import type { Venue } from '../../domain/guard/risk.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { AutomationUseCases } from '../../ports/use-cases/automations.js';
import type { RunUseCases } from '../../ports/use-cases/runs.js';
import { defineTool } from '../tools/define-tool.js';
import { defined } from '../../domain/defined.js';

/** The tool that starts a run: the door answers a client that declares the Tasks extension with a task for it. */
export const RUN_AUTOMATION_TOOL = 'porter_automations_run';

const AUTOMATION_ID = z
  .string()
  .regex(/^atm_[0-9A-Za-z_-]{10,64}$/)
  .describe('The automation id (atm_…), as porter_automations_list gives it');

/** The use cases the tools call, resolved when a tool runs (they reach the registry these tools are part of). */
export interface AutomationToolDeps {
  readonly automations: () => AutomationUseCases;
  readonly runs: () => RunUseCases;
}

/** A run is asked for by a person, never by another run or an app acting on its own. */
export class RunNowRefused extends Forbidden {
  constructor(venue: Venue) {
    super(
      `An automation cannot be run from ${venue === 'automation' ? 'another run' : 'an app'}: ask for it in a chat or through a connected agent`,
    );
  }
}

function runNowVenue(venue: Venue): RunNowVenue {
  const allowed = RUN_NOW_VENUES as ReadonlyArray<Venue>;
  if (!allowed.includes(venue)) throw new RunNowRefused(venue);
  return venue as RunNowVenue;
}

/**
 * The person's automations as tools: list them (a read), and run one now. Running is a `write`:
 * the run acts with the standing grants the person gave the automation for its own schedule or
 * webhook, so starting it at another moment (paying a bill twice, say) is theirs to approve, or to
 * remember for the client asking.
 */
export function automationTools(deps: AutomationToolDeps): ToolDefinition[] {
  return [
    defineTool({
      name: 'porter_automations_list',
      description: "List the person's automations: their id, name, trigger, whether they are armed and when they next run.",
      input: z.strictObject({}),
      risk: 'read',
      async execute(_input, context) {
        const { automations } = await deps.automations().listAutomations.execute({ principal: context.principal, limit: 100 });
        return {
          automations: automations.map((automation) => ({
            id: automation.id,
            name: automation.name,
            trigger: automation.trigger,
            armed: automation.armed,
            nextRunAt: automation.nextRunAt ?? null,
          })),
        };
      },
    }),
    defineTool({
      name: RUN_AUTOMATION_TOOL,
      description:
        "Run one of the person's automations now, as its schedule or webhook would. Answers the run's id at once; the run goes on in the background.",
      input: z.strictObject({
        automationId: AUTOMATION_ID,
        input: z.string().max(32_000).optional().describe('What the run is given after its task, as a webhook delivery would bring it'),
      }),
      risk: 'write',
      preview: ({ automationId }) => `Run the automation ${automationId} now`,
      async execute({ automationId, input }, context) {
        const run = await deps.runs().runAutomationNow.execute({
          principal: context.principal,
          automationId,
          venue: runNowVenue(context.venue),
          ...defined({ input }),
        });
        return { runId: run.id, automationId: run.automationId, state: run.state, createdAt: run.createdAt };
      },
    }),
  ];
}
