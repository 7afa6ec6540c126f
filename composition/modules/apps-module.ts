import { ContainerModule } from 'inversify';
import { resolve } from 'node:path';
import { TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { Store } from '../../ports/store.js';
import type { Model } from '../../ports/model.js';
import type { Sandbox } from '../../ports/sandbox.js';
import type { Logger } from '../../ports/logger.js';
import type { Ids } from '../../ports/ids.js';
import type { Clock } from '../../ports/clock.js';
import type { ActionTool, AppGenerator } from '../../ports/app-generator.js';
import type { PinCatalog } from '../../ports/pin-catalog.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import type { AppActionUseCases, AppsUseCases } from '../../ports/use-cases/apps.js';
import type { StatusBlocks } from '../../ports/use-cases/system.js';
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
import type { ToolDependents } from '../../application/development/tool-dependents.js';
import type { GuardCall } from '../../application/guard/guard-call.js';
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
import { ZipAppArchive } from '../../adapters/apps/zip-app-archive.js';
import { appRoutes } from '../../adapters/http/routes/app-routes.js';
import { appActionRoutes } from '../../adapters/http/routes/app-action-routes.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';

/** The label the model ladder gives its offline scripted model. */
const SCRIPTED_MODEL = 'porter:scripted';
const APP_TOOL_COUNT = 7;

/**
 * The generator that fits the deployment's model: deterministic for the scripted one, none without
 * a model. Either is told the host's tools, which the apps it writes may run.
 */
export function generatorFor(model: Model | null, tools: ReadonlyArray<ActionTool> = []): AppGenerator | null {
  if (!model) return null;
  return model.label === SCRIPTED_MODEL ? new DeterministicAppGenerator(tools) : new ModelAppGenerator(model, { tools });
}

export function pinCatalogFor(pins: PorterConfig['pins']): PinCatalog | null {
  if (!pins) return null;
  return typeof pins === 'string'
    ? new FilePinCatalog({ manifestFile: resolve(pins) })
    : new FilePinCatalog({ slots: pins.slots, baseDir: process.cwd() });
}

export interface AppsParts {
  readonly store: Store;
  readonly book: AppBook;
  readonly generator: AppGenerator | null;
  readonly catalog: PinCatalog | null;
  readonly sandbox: Sandbox | null;
  readonly approvals: ApprovalBook;
  readonly ids: Ids;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The host's `canShareApps`; null: nobody may share. */
  readonly canShareApps: CanShareApps | null;
}

/** The apps use cases over their ports (the module and the tests assemble them the same way). */
export function assembleApps(parts: AppsParts): AppsUseCases {
  const { book, ids, clock, catalog } = parts;
  const generation = new Generation(parts.generator);
  const rollout = new ServedRollout(parts.sandbox, parts.logger, new NodeAppScaffold());
  const data = new AppData(parts.store);
  const archive = new ZipAppArchive();
  const sharing = new AppSharing(parts.canShareApps, parts.logger);
  return {
    listApps: new ListApps(book),
    createApp: new CreateApp(book, generation, sharing, ids, clock),
    getApp: new GetApp(book),
    deleteApp: new DeleteApp(book, data, rollout),
    openApp: new OpenApp(book, rollout, new ResumeServedApp(rollout, parts.logger)),
    editApp: new EditApp(book, generation, rollout, ids, clock),
    listVersions: new ListVersions(book),
    exportApp: new ExportApp(book, archive),
    importApp: new ImportApp(book, archive, sharing, ids, clock),
    seedApp: new SeedApp(book, catalog, generation, sharing, ids, clock),
    listPlacements: new ListPlacements(book),
    rebasePin: new RebasePin(book, catalog, generation, rollout, new ApprovalInvalidation(parts.approvals), ids, clock),
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
 * their count for /sync/impact. Graduation uses TOKENS.Sandbox when a sandbox
 * module bound one; without it graduation answers 501.
 */
export const appsModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.AppBook)
    .toDynamicValue((ctx) => {
      const store = ctx.get<Store>(TOKENS.Store);
      return new AppBook(store.records<AppPrimitives>('apps'), store.records<VersionPrimitives>('app-versions'));
    })
    .inSingletonScope();
  // The host's tools come from the config, not the registry: the registry holds the apps tools, which need the generator.
  bind<AppGenerator | null>(TOKENS.AppGenerator)
    .toDynamicValue((ctx) => generatorFor(ctx.get<Model | null>(TOKENS.Model), ctx.get<PorterConfig>(TOKENS.Config).tools))
    .inSingletonScope();
  bind<PinCatalog | null>(TOKENS.PinCatalog)
    .toDynamicValue((ctx) => pinCatalogFor(ctx.get<PorterConfig>(TOKENS.Config).pins))
    .inSingletonScope();
  bind<AppsUseCases>(TOKENS.AppsUseCases)
    .toDynamicValue((ctx) =>
      assembleApps({
        store: ctx.get<Store>(TOKENS.Store),
        book: ctx.get<AppBook>(TOKENS.AppBook),
        generator: ctx.get<AppGenerator | null>(TOKENS.AppGenerator),
        catalog: ctx.get<PinCatalog | null>(TOKENS.PinCatalog),
        sandbox: ctx.get<Sandbox>(TOKENS.Sandbox, { optional: true }) ?? null,
        approvals: ctx.get<ApprovalBook>(TOKENS.ApprovalBook),
        ids: ctx.get<Ids>(TOKENS.Ids),
        clock: ctx.get<Clock>(TOKENS.Clock),
        logger: ctx.get<Logger>(TOKENS.Logger),
        canShareApps: ctx.get<PorterConfig>(TOKENS.Config).canShareApps ?? null,
      }),
    )
    .inSingletonScope();
  bind<ToolDefinition[]>(TOKENS.AppTools)
    .toDynamicValue((ctx) => appTools(ctx.get<AppsUseCases>(TOKENS.AppsUseCases), ctx.get<AppBook>(TOKENS.AppBook)))
    .inSingletonScope();
  // PorterTools is multi-bound one tool per binding.
  for (let index = 0; index < APP_TOOL_COUNT; index++) {
    bind<ToolDefinition>(TOKENS.PorterTools).toDynamicValue((ctx) => ctx.get<ToolDefinition[]>(TOKENS.AppTools)[index]!);
  }
  bind(TOKENS.SessionAdopters).toDynamicValue((ctx) => new AppsAdopter(ctx.get(TOKENS.AppBook)));
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => appRoutes(ctx.get(TOKENS.AppsUseCases)));
  bind<AppActionUseCases>(TOKENS.AppActionUseCases)
    .toDynamicValue((ctx) => ({
      runAction: new RunAppAction(ctx.get<AppBook>(TOKENS.AppBook), ctx.get<GuardCall>(TOKENS.GuardCall), ctx.get<Ids>(TOKENS.Ids)),
    }))
    .inSingletonScope();
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => appActionRoutes(ctx.get(TOKENS.AppActionUseCases)));
  bind<ToolDependents>(TOKENS.ToolDependents).toDynamicValue(
    (ctx) => new AppToolDependents(ctx.get<Store>(TOKENS.Store).records<AppPrimitives>('apps')),
  );
  bind<Partial<StatusBlocks>>(TOKENS.StatusBlocks).toConstantValue({ apps: true });
});
