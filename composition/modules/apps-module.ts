import type { HeldDeletions } from '../../application/deletions/deletable.js';
import { resolve } from 'node:path';
import { get, getOptional, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { APP_TOKENS } from './apps-tokens.js';
import { DELETION_TOKENS } from './deletions-tokens.js';
import { GUARD_TOKENS } from './guard-tokens.js';
import { SANDBOX_TOKENS } from './sandbox-tokens.js';
import { USAGE_TOKENS } from './usage-tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { Store } from '../../ports/store.js';
import type { Model } from '../../ports/model.js';
import type { Sandbox } from '../../ports/sandbox.js';
import type { Logger } from '../../ports/logger.js';
import type { Ids } from '../../ports/ids.js';
import type { Clock } from '../../ports/clock.js';
import type { ActionTool, AppGenerator } from '../../ports/app-generator.js';
import type { PinCatalog } from '../../ports/pin-catalog.js';
import type { AppsUseCases } from '../../ports/use-cases/apps.js';
import type { AppPrimitives } from '../../domain/apps/app.js';
import { AppBook, type VersionPrimitives } from '../../application/apps/app-book.js';
import { AppData } from '../../application/apps/app-data.js';
import { AppSharing } from '../../application/apps/app-sharing.js';
import type { CanShareApps } from '../../ports/app-sharing.js';
import { Generation } from '../../application/apps/generation.js';
import { ServedRollout } from '../../application/apps/served-rollout.js';
import { NodeAppScaffold } from '../../adapters/apps/node-app-scaffold.js';
import { CreateApp } from '../../application/apps/create-app.js';
import { EditApp } from '../../application/apps/edit-app.js';
import { GetApp } from '../../application/apps/get-app.js';
import { ListApps } from '../../application/apps/list-apps.js';
import { ListVersions } from '../../application/apps/list-versions.js';
import { OpenApp } from '../../application/apps/open-app.js';
import { ResumeServedApp } from '../../application/apps/resume-served-app.js';
import { DeleteApp } from '../../application/apps/delete-app.js';
import { ExportApp } from '../../application/apps/export-app.js';
import { ImportApp } from '../../application/apps/import-app.js';
import { ListPlacements } from '../../application/apps/list-placements.js';
import { RebasePin } from '../../application/apps/rebase-pin.js';
import { SeedApp } from '../../application/apps/seed-app.js';
import { SyncPins } from '../../application/apps/sync-pins.js';
import { GraduateApp } from '../../application/apps/graduate-app.js';
import { CallFunction } from '../../application/apps/call-function.js';
import { ViewServedApp } from '../../application/apps/view-served-app.js';
import { RunAppAction } from '../../application/apps/run-app-action.js';
import { AppToolDependents } from '../../application/apps/app-tool-dependents.js';
import { DeleteRecords } from '../../application/apps/delete-records.js';
import { GetRecord } from '../../application/apps/get-record.js';
import { ListRecords } from '../../application/apps/list-records.js';
import { PutRecord } from '../../application/apps/put-record.js';
import { DeleteBlob } from '../../application/apps/delete-blob.js';
import { GetBlob } from '../../application/apps/get-blob.js';
import { PutBlob } from '../../application/apps/put-blob.js';
import { ApprovalInvalidation } from '../../application/apps/approval-invalidation.js';
import type { ApprovalBook } from '../../application/guard/approval-book.js';
import { AppsAdopter } from '../../application/apps/apps-adopter.js';
import { appTools } from '../../application/apps/app-tools.js';
import { DeterministicAppGenerator } from '../../adapters/apps/deterministic-app-generator.js';
import { ModelAppGenerator } from '../../adapters/apps/model-app-generator.js';
import { FilePinCatalog } from '../../adapters/apps/file-pin-catalog.js';
import { NoPinCatalog } from '../../adapters/apps/no-pin-catalog.js';
import { NoAppGenerator } from '../../adapters/apps/no-app-generator.js';
import { NoSandbox } from '../../adapters/sandbox/no-sandbox.js';
import { NoModel } from '../../adapters/model/no-model.js';
import { ZipAppArchive } from '../../adapters/apps/zip-app-archive.js';
import { appRoutes } from '../../adapters/http/routes/app-routes.js';
import type { UsageMeter } from '../../application/usage/usage-meter.js';
import type { TurnSlots } from '../../application/usage/turn-slots.js';
import { appActionRoutes } from '../../adapters/http/routes/app-action-routes.js';

/** The label the model ladder gives its offline scripted model. */
const SCRIPTED_MODEL = 'porter:scripted';

/**
 * The generator that fits the deployment's model: deterministic for the scripted one, the null
 * generator (NotImplemented) without a model. Either is told the host's tools, which the apps it
 * writes may run.
 */
export function generatorFor(model: Model, tools: ReadonlyArray<ActionTool> = []): AppGenerator {
  if (model instanceof NoModel) return new NoAppGenerator();
  return model.label === SCRIPTED_MODEL ? new DeterministicAppGenerator(tools) : new ModelAppGenerator(model, { tools });
}

export function pinCatalogFor(pins: PorterConfig['pins']): PinCatalog {
  if (!pins) return new NoPinCatalog();
  return typeof pins === 'string'
    ? new FilePinCatalog({ manifestFile: resolve(pins) })
    : new FilePinCatalog({ slots: pins.slots, baseDir: process.cwd() });
}

/** The sharing rule of a host that gave none: nobody may share an app. */
const nobodyMayShare: CanShareApps = () => false;

export interface AppsParts {
  readonly store: Store;
  readonly book: AppBook;
  /** Null: no model (the null generator answers NotImplemented). */
  readonly generator: AppGenerator | null;
  /** Null: no remixable slots. */
  readonly catalog: PinCatalog | null;
  /** Null: no sandbox (graduating and serving answer NotImplemented). */
  readonly sandbox: Sandbox | null;
  readonly approvals: ApprovalBook;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The host's `canShareApps`; null: nobody may share. */
  readonly canShareApps: CanShareApps | null;
  /** The person's `appGenerations` and `tokens` (creates, edits, seeds with an instruction, rebases; `NoUsageMeter`: nothing is metered). */
  readonly meter: UsageMeter;
  /** The bound on the person's turns in flight, which a generation asked outside a turn counts toward (`NoTurnSlots`: none). */
  readonly slots: TurnSlots;
  /** Apps waiting out their undo window, left out of the list; absent, none is. */
  readonly held?: HeldDeletions;
}

/**
 * The apps use cases over their ports (the module and the tests assemble them the same way). An
 * absent port becomes its null object here, so the use cases never check for one.
 */
export function assembleApps(parts: AppsParts): AppsUseCases {
  const { book, ids, clock } = parts;
  const catalog = parts.catalog ?? new NoPinCatalog();
  const generation = new Generation(parts.generator ?? new NoAppGenerator(), parts.logger, { meter: parts.meter, slots: parts.slots });
  const rollout = new ServedRollout(parts.sandbox ?? new NoSandbox(), parts.logger, new NodeAppScaffold(), clock);
  const data = new AppData(parts.store);
  const archive = new ZipAppArchive();
  const sharing = new AppSharing(parts.canShareApps ?? nobodyMayShare, parts.logger);
  return {
    listApps: new ListApps(book, parts.held),
    createApp: new CreateApp({ book, generation, sharing, ids, clock }),
    getApp: new GetApp(book),
    deleteApp: new DeleteApp(book, data, rollout),
    openApp: new OpenApp(book, rollout, new ResumeServedApp(rollout, parts.logger)),
    editApp: new EditApp({ book, generation, rollout, ids, clock }),
    listVersions: new ListVersions(book),
    exportApp: new ExportApp(book, archive),
    importApp: new ImportApp({ book, archive, sharing, ids, clock }),
    seedApp: new SeedApp({ book, catalog, generation, sharing, ids, clock }),
    listPlacements: new ListPlacements(book),
    rebasePin: new RebasePin({ book, catalog, generation, rollout, approvals: new ApprovalInvalidation(parts.approvals), ids, clock }),
    syncPins: new SyncPins(book, catalog, clock),
    graduateApp: new GraduateApp(book, rollout, ids, clock),
    callFunction: new CallFunction(book, rollout),
    viewServedApp: new ViewServedApp(book, rollout),
    listRecords: new ListRecords(book, data),
    getRecord: new GetRecord(book, data),
    putRecord: new PutRecord(book, data, ids),
    deleteRecords: new DeleteRecords(book, data),
    getBlob: new GetBlob(book, data),
    putBlob: new PutBlob(book, data),
    deleteBlob: new DeleteBlob(book, data),
  };
}

/**
 * Generated apps (loaded unless `apps: false`): the use cases, the seven porter_apps_* tools,
 * anonymous adoption of apps, the routes, apps' tool actions (through the guard, venue `app`) and
 * their count for /sync/impact. Graduation uses SANDBOX_TOKENS.Sandbox when a sandbox
 * module bound one; without it graduation answers 501.
 */
export const appsModule = porterModule((bind) => {
  bind.singleton(
    APP_TOKENS.AppBook,
    (ctx) => new AppBook(recordsOf<AppPrimitives>(ctx, 'apps'), recordsOf<VersionPrimitives>(ctx, 'app-versions')),
  );
  // The host's tools come from the config, not the registry: the registry holds the apps tools, which need the generator.
  bind.singleton(APP_TOKENS.AppGenerator, (ctx) => generatorFor(get(ctx, TOKENS.Model), get(ctx, TOKENS.Config).tools));
  bind.singleton(APP_TOKENS.PinCatalog, (ctx) => pinCatalogFor(get(ctx, TOKENS.Config).pins));
  bind.singleton(APP_TOKENS.AppsUseCases, (ctx) =>
    assembleApps({
      store: get(ctx, TOKENS.Store),
      book: get(ctx, APP_TOKENS.AppBook),
      generator: get(ctx, APP_TOKENS.AppGenerator),
      catalog: get(ctx, APP_TOKENS.PinCatalog),
      sandbox: getOptional(ctx, SANDBOX_TOKENS.Sandbox) ?? null,
      approvals: get(ctx, GUARD_TOKENS.ApprovalBook),
      ids: get(ctx, TOKENS.Ids),
      clock: get(ctx, TOKENS.Clock),
      logger: get(ctx, TOKENS.Logger),
      canShareApps: get(ctx, TOKENS.Config).canShareApps ?? null,
      meter: get(ctx, USAGE_TOKENS.UsageMeter),
      slots: get(ctx, USAGE_TOKENS.TurnSlots),
      held: get(ctx, DELETION_TOKENS.PendingDeletions),
    }),
  );
  // The apps tools as one list: the registry holds whatever the list holds.
  bind.singleton(TOKENS.PorterTools, (ctx) => appTools(get(ctx, APP_TOKENS.AppsUseCases), get(ctx, APP_TOKENS.AppBook)));
  bind(TOKENS.SessionAdopters).toDynamicValue((ctx) => new AppsAdopter(get(ctx, APP_TOKENS.AppBook)));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => appRoutes(get(ctx, APP_TOKENS.AppsUseCases)));
  bind.singleton(APP_TOKENS.AppActionUseCases, (ctx) => ({
    runAction: new RunAppAction(get(ctx, APP_TOKENS.AppBook), get(ctx, GUARD_TOKENS.GuardCall), get(ctx, TOKENS.Ids)),
  }));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => appActionRoutes(get(ctx, APP_TOKENS.AppActionUseCases)));
  bind(TOKENS.ToolDependents).toDynamicValue((ctx) => new AppToolDependents(recordsOf<AppPrimitives>(ctx, 'apps')));
  bind(TOKENS.StatusBlocks).toConstantValue({ apps: true });
});
