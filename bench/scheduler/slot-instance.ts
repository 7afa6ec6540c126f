/**
 * One Porter instance of the slot-start bench, as its own process so the bench can kill it outright
 * (SIGKILL: its sockets close, nothing is put back): `node --import tsx slot-instance.ts '<json>'`
 * with an IPC channel. It tells the bench `ready` once started (with the holder its run leases
 * name), then answers the bench's asks:
 * `setup` (create and arm the automations), `tick` (what `POST /tick` does, for the external cron),
 * `report` (every run, once the measurement is over) and `stop` (close, then exit).
 */
import { createPorter } from '../../composition/create-porter.js';
import { get } from '../../composition/tokens.js';
import { AUTOMATION_TOKENS } from '../../composition/modules/automations-tokens.js';
import { TICK_TOKENS } from '../../composition/modules/tick-tokens.js';
import { containerOf } from '../../composition/porter-container.js';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';
import { holderOf } from '../../composition/modules/instance-liveness.js';
import { everyRun } from '../../test/support/every-run.js';

export interface SlotInstanceOptions {
  readonly databaseUrl: string;
  readonly scheduler: 'interval' | 'pg-boss' | 'external';
  readonly tickSecret: string;
  readonly runConcurrency: number;
}

export type SlotInstanceAsk =
  | { readonly ask: 'setup'; readonly automations: number; readonly cron: string; readonly prompt: string }
  | { readonly ask: 'tick' }
  | { readonly ask: 'report' }
  | { readonly ask: 'stop' };

export type SlotInstanceRun = Awaited<ReturnType<typeof everyRun>>[number];

export type SlotInstanceAnswer =
  | { readonly answer: 'ready'; readonly holder: string }
  | { readonly answer: 'setup' }
  | { readonly answer: 'report'; readonly runs: SlotInstanceRun[] }
  | { readonly answer: 'failed'; readonly error: string };

const ada = { subject: 'ada', kind: 'user' };
const options = JSON.parse(process.argv[2] ?? '{}') as SlotInstanceOptions;
const tell = (answer: SlotInstanceAnswer) => process.send?.(answer);

const porter = await createPorter(
  {
    development: false,
    secret: 'a-production-secret-for-the-bench-0123456789',
    databaseUrl: options.databaseUrl,
    tickSecret: options.tickSecret,
    scheduler: options.scheduler,
    model: new ScriptedLanguageModel(),
    runConcurrency: options.runConcurrency,
    breakers: false,
    logger: 'silent',
  },
  {},
);
const container = containerOf(porter);

process.on('message', (message: SlotInstanceAsk) => {
  void answer(message).catch((error: unknown) => tell({ answer: 'failed', error: String(error) }));
});
tell({ answer: 'ready', holder: holderOf(container) });

async function answer(message: SlotInstanceAsk): Promise<void> {
  switch (message.ask) {
    case 'setup': {
      const automations = get(container, AUTOMATION_TOKENS.AutomationUseCases);
      for (let i = 0; i < message.automations; i++) {
        const created = await automations.createAutomation.execute({
          principal: ada,
          name: `report ${i}`,
          trigger: { kind: 'schedule', cron: message.cron },
          task: { prompt: message.prompt.replace('{i}', String(i)) },
        });
        await automations.armAutomation.execute({ principal: ada, automationId: created.id });
      }
      tell({ answer: 'setup' });
      return;
    }
    case 'tick':
      // A tick that fails (the database busy) is the external cron's miss: the next one goes on.
      await get(container, TICK_TOKENS.TickUseCases)
        .tick.execute({ bearer: options.tickSecret })
        .catch(() => undefined);
      return;
    case 'report':
      tell({ answer: 'report', runs: await everyRun(porter, ada) });
      return;
    case 'stop':
      await porter.close();
      process.exit(0);
  }
}
