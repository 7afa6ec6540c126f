import type { VectorIndexes } from '../../ports/vector-index.js';
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
import { AiSdkModel } from '../../adapters/model/ai-sdk-model.js';
import { OtelTelemetry } from '../../adapters/telemetry/otel-telemetry.js';
import { NoTelemetry } from '../../adapters/telemetry/no-telemetry.js';
import type { Model } from '../../ports/model.js';
import type { Telemetry } from '../../ports/telemetry.js';
import { PORTER_VERSION } from '../version.js';
import type { Integrations } from '../integrations/load-integrations.js';
import { defined } from '../../domain/defined.js';

export interface CoreParts {
  readonly config: PorterConfig;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The environment the deployment was configured from (the model ladder reads it). */
  readonly env: NodeJS.ProcessEnv;
  /** The model, sandbox, broker and scheduler the configuration names, loaded at boot. */
  readonly integrations: Integrations;
  /** Hybrid knowledge retrieval's vector indexes, decided at boot (null or absent: full text alone). */
  readonly knowledgeVectors?: VectorIndexes | null;
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
    bind.singleton(TOKENS.AuditSink, (ctx) => new StoreAuditLog(get(ctx, TOKENS.Store)));
    bind.singleton(TOKENS.AuditLog, (ctx) => get(ctx, TOKENS.AuditSink));
    bind.singleton(
      TOKENS.AuditTrail,
      (ctx) =>
        new AuditTrail({
          sink: get(ctx, TOKENS.AuditSink),
          ids: get(ctx, TOKENS.Ids),
          clock: get(ctx, TOKENS.Clock),
          logger: get(ctx, TOKENS.Logger),
        }),
    );
    bind(TOKENS.PrincipalResolver).toConstantValue(parts.config.principal ?? (() => null));
    // What the deployment lacks is bound as its null object, which answers NotImplemented (501).
    const telemetry = telemetryFor(parts.config);
    bind(TOKENS.Telemetry).toConstantValue(telemetry);
    bind(TOKENS.Model).toConstantValue(parts.integrations.model ? tracedModel(parts.integrations.model, telemetry) : new NoModel());
    bind(TOKENS.ConnectionBroker).toConstantValue(parts.integrations.broker ?? new NoConnectionBroker());
  });
}

/** Traces as the `telemetry` option says; the subject's hash is keyed by the deployment's secret. */
export function telemetryFor(config: PorterConfig): Telemetry {
  if (config.telemetry === false) return new NoTelemetry();
  const secret = Array.isArray(config.secret) ? config.secret[0] : config.secret;
  return new OtelTelemetry({
    subject: config.telemetry.subject,
    recordContent: config.telemetry.recordContent,
    ...defined({ hashKey: typeof secret === 'string' ? secret : undefined }),
    version: PORTER_VERSION,
  });
}

/**
 * The AI SDK's own telemetry on Porter's tracer, so each model step's `ai.*` spans nest under the
 * turn's span; prompts and answers only when the host opted into content.
 */
function tracedModel(model: Model, telemetry: Telemetry): Model {
  if (!(model instanceof AiSdkModel) || !(telemetry instanceof OtelTelemetry)) return model;
  return model.traced(telemetry.tracer, telemetry.recordsContent, () => telemetry.observed());
}
