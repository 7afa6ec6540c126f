import { navigate } from './route.js';
import { startedRun } from './run-shapes.js';
import { useBusyAction } from './use-busy-action.js';
import { wire } from './wire.js';

export type RunAction = 'stop' | 'rerun' | 'dry-run';

/**
 * A run page's Stop, Run again and Dry run: which one is under way (`busy`, so the others wait),
 * and what the last one came to (`notice`). Run again and Dry run open the run they started.
 */
export function useRunActions(runId: string, automationId: string | undefined, reload: () => void) {
  const { notice, setNotice, busy, act } = useBusyAction<RunAction>();
  const stop = () =>
    act('stop', async () => {
      await wire('POST', `/runs/${encodeURIComponent(runId)}/stop`, { body: {} });
      setNotice({ tone: 'info', text: 'Stopping: the current step finishes, then the run ends.' });
      reload();
    });
  const rerun = () =>
    act('rerun', async () => {
      const again = await wire('POST', `/runs/${encodeURIComponent(runId)}/rerun`, { body: {}, schema: startedRun });
      navigate({ name: 'run', runId: again.id });
    });
  const dryRun = () =>
    act('dry-run', async () => {
      const tried = await wire('POST', `/automations/${encodeURIComponent(automationId ?? '')}/dry-run`, { body: {}, schema: startedRun });
      navigate({ name: 'run', runId: tried.id });
    });
  return { notice, busy, stop, rerun, dryRun };
}
