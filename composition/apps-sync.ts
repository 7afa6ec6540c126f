import { openPorter } from './create-porter.js';
import { containerOf } from './porter-container.js';
import type { PorterOptions } from './config/porter-options.js';
import { get } from './tokens.js';
import { APP_TOKENS } from './modules/apps-tokens.js';
import type { SyncReport } from '../ports/use-cases/apps.js';

/**
 * What `porter sync` runs: builds the deployment from the same options (and environment) the
 * host uses, re-hashes every host component of the pin manifest, marks drifted forks, and
 * returns the report. It never rebases. With `apps: false` there is nothing to sync.
 */
export async function syncPins(options: PorterOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<SyncReport> {
  // No background work: a sync neither ticks schedules nor takes runs.
  const porter = await openPorter({ logger: 'warn', ...options }, env, { background: false });
  try {
    if (!containerOf(porter).isBound(APP_TOKENS.AppsUseCases))
      return { checkedAt: new Date().toISOString(), slots: [], drifted: [], current: [], missing: [] };
    return await get(containerOf(porter), APP_TOKENS.AppsUseCases).syncPins.execute({});
  } finally {
    await porter.close();
  }
}
