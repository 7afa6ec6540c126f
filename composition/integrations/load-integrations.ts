import type { PorterConfig } from '../config/config-schema.js';
import { PorterConfigError } from '../config/load-config.js';
import type { ConnectionBroker } from '../../ports/connections.js';
import type { Logger } from '../../ports/logger.js';
import type { Model } from '../../ports/model.js';
import type { Sandbox } from '../../ports/sandbox.js';
import type { PgBossSchedulerOptions } from '../../adapters/scheduler/pg-boss-scheduler.js';
import type { BackgroundScheduler, RunDispatcher, WebhookDispatcher } from '../../ports/scheduler.js';
import { AiSdkModel } from '../../adapters/model/ai-sdk-model.js';
import { modelFromLadder, pickRung, RUNG_PACKAGES, RUNG_VARIABLES } from '../../adapters/model/model-ladder.js';
import { importOptional } from './optional-package.js';
import { loadBroker } from './broker-integration.js';
import { loadSandbox } from './sandbox-integration.js';
import { loadUploadStore } from './upload-store-integration.js';
import type { FileBlobs } from '../../ports/file-blobs.js';

/** pg-boss's scheduler, made once the container knows the work it drives. */
export type PgBossFactory = (
  options: PgBossSchedulerOptions,
) => BackgroundScheduler & RunDispatcher & { readonly webhooks: WebhookDispatcher; wake(): void };

/**
 * The integrations a configuration names, each behind an optional package: built at boot, so a
 * missing package or a bad setting fails `createPorter` with the option that asked for it.
 */
export interface Integrations {
  readonly model: Model | null;
  readonly sandbox: Sandbox | null;
  readonly broker: ConnectionBroker | null;
  /** Present only with `scheduler: 'pg-boss'`. */
  readonly pgBoss: PgBossFactory | null;
  /** Where uploads go when not in the store's own database (`uploads.store`). */
  readonly uploadStore: FileBlobs | null;
}

export async function loadIntegrations(config: PorterConfig, env: NodeJS.ProcessEnv, logger: Logger): Promise<Integrations> {
  const preset = config.actAs;
  if (preset?.prepare) await importOptional(preset.requires ?? '', 'actAs', () => preset.prepare!());
  return {
    model: await loadModel(config, env),
    sandbox: await loadSandbox(config, env, logger),
    broker: await loadBroker(config, env),
    pgBoss: config.scheduler === 'pg-boss' ? await loadPgBoss() : null,
    uploadStore: await loadUploadStore(config),
  };
}

/** The host's model, else the ladder's rung (its provider package loaded only when picked). */
async function loadModel(config: PorterConfig, env: NodeJS.ProcessEnv): Promise<Model | null> {
  if (config.model) return new AiSdkModel(config.model, 'custom', 'host model');
  let rung: ReturnType<typeof pickRung>;
  try {
    rung = pickRung(env);
  } catch (error) {
    throw new PorterConfigError([
      { option: 'model (from PORTER_MODEL_PROVIDER)', message: error instanceof Error ? error.message : String(error) },
    ]);
  }
  if (!rung) return modelFromLadder(env, config.development);
  return importOptional(RUNG_PACKAGES[rung], `model (from ${RUNG_VARIABLES[rung]})`, () => modelFromLadder(env, config.development));
}

async function loadPgBoss(): Promise<PgBossFactory> {
  const { PgBossScheduler } = await importOptional('pg-boss', 'scheduler', () => import('../../adapters/scheduler/pg-boss-scheduler.js'));
  return (options) => new PgBossScheduler(options);
}
