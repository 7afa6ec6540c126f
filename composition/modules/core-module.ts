import type { ContainerModule } from 'inversify';
import type { PorterConfig } from '../config/config-schema.js';
import { get, porterModule, TOKENS } from '../tokens.js';
import type { Store } from '../../ports/store.js';
import type { Logger } from '../../ports/logger.js';
import type { Clock } from '../../ports/clock.js';
import { UlidIds } from '../../adapters/runtime/ulid-ids.js';
import { ConsoleLogger } from '../../adapters/runtime/console-logger.js';
import { StoreAuditLog } from '../../adapters/audit/store-audit-log.js';
import { NoModel } from '../../adapters/model/no-model.js';
import { NoConnectionBroker } from '../../adapters/connections/no-connection-broker.js';
import { AuditTrail } from '../../application/audit/audit-trail.js';
import type { Integrations } from '../integrations/load-integrations.js';

export interface CoreParts {
  readonly config: PorterConfig;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The environment the deployment was configured from (the model ladder reads it). */
  readonly env: NodeJS.ProcessEnv;
  /** The model, sandbox, broker and scheduler the configuration names, loaded at boot. */
  readonly integrations: Integrations;
}

export function loggerFor(config: PorterConfig): Logger {
  return typeof config.logger === 'string' ? new ConsoleLogger(config.logger) : config.logger;
}

/** What every composition shares: config, time, ids, logging, the store, the audit trail and the loaded integrations (model, broker). */
export function coreModule(parts: CoreParts): ContainerModule {
  return porterModule((bind) => {
    bind(TOKENS.Config).toConstantValue(parts.config);
    bind(TOKENS.Environment).toConstantValue(parts.env);
    bind(TOKENS.Clock).toConstantValue(parts.clock);
    bind(TOKENS.Ids).toConstantValue(new UlidIds());
    bind(TOKENS.Logger).toConstantValue(parts.logger);
    bind(TOKENS.Store).toConstantValue(parts.store);
    bind(TOKENS.AuditSink)
      .toDynamicValue((ctx) => new StoreAuditLog(get(ctx, TOKENS.Store)))
      .inSingletonScope();
    bind(TOKENS.AuditLog)
      .toDynamicValue((ctx) => get(ctx, TOKENS.AuditSink))
      .inSingletonScope();
    bind(TOKENS.AuditTrail)
      .toDynamicValue(
        (ctx) =>
          new AuditTrail({
            sink: get(ctx, TOKENS.AuditSink),
            ids: get(ctx, TOKENS.Ids),
            clock: get(ctx, TOKENS.Clock),
            logger: get(ctx, TOKENS.Logger),
          }),
      )
      .inSingletonScope();
    bind(TOKENS.PrincipalResolver).toConstantValue(parts.config.principal ?? (() => null));
    // What the deployment lacks is bound as its null object, which answers NotImplemented (501).
    bind(TOKENS.Model).toConstantValue(parts.integrations.model ?? new NoModel());
    bind(TOKENS.ConnectionBroker).toConstantValue(parts.integrations.broker ?? new NoConnectionBroker());
  });
}
