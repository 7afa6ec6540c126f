import { NotFound } from '../../domain/errors.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AppsUseCases, AppSummary } from '../../ports/use-cases/apps.js';
import type { DoorApp, DoorAppsUseCases, DoorAppView } from '../../ports/use-cases/door.js';
import type { DoorCaller } from '../../domain/door/door-caller.js';
import { OPEN_APP_TOOL } from '../apps/app-tools.js';

/** How many apps the door lists, newest first: a host's picker, not an archive. */
const LISTED_APPS = 100;
/** How many records of each bound collection an app is drawn with, as the chrome's first page of them. */
const DRAWN_RECORDS = 100;

/**
 * `resources/list` for an MCP Apps client: the connected person's own apps (as `GET /apps` lists
 * them; a shared app of someone else is opened by its id, never listed).
 */
export class ListDoorApps implements UseCase<{ caller: DoorCaller }, ReadonlyArray<DoorApp>> {
  constructor(private readonly apps: AppsUseCases) {}

  async execute({ caller }: { caller: DoorCaller }): Promise<ReadonlyArray<DoorApp>> {
    const { apps } = await this.apps.listApps.execute({ principal: caller.principal, limit: LISTED_APPS });
    return apps.map(doorAppOf);
  }
}

/**
 * `resources/read` of one app, and what a door `porter_apps_open` shows: the app as the caller may
 * open it (the same visibility as the wire's: their own, or a shared one), with its current records.
 * One they may not open reads as absent, exactly like one that does not exist.
 */
export class ViewDoorApp implements UseCase<{ caller: DoorCaller; appId: string }, DoorAppView | null> {
  constructor(private readonly apps: AppsUseCases) {}

  async execute({ caller, appId }: { caller: DoorCaller; appId: string }): Promise<DoorAppView | null> {
    const principal = caller.principal;
    try {
      const app = await this.apps.getApp.execute({ principal, appId });
      const { root, nodes, data, actions } = app.document;
      const collections = [...new Set(Object.values(data).map((binding) => binding.collection))];
      const pages = await Promise.all(
        collections.map((collection) => this.apps.listRecords.execute({ principal, appId, collection, limit: DRAWN_RECORDS })),
      );
      const records = Object.fromEntries(
        collections.map((collection, i) => [collection, pages[i]!.records.map(({ id, data: value }) => ({ id, data: value }))]),
      );
      return { app: { ...doorAppOf(app), root, nodes, data, actions }, records };
    } catch (error) {
      if (error instanceof NotFound) return null;
      throw error;
    }
  }
}

function doorAppOf(app: AppSummary): DoorApp {
  return { id: app.id, title: app.title, ui: app.ui, version: app.version, updatedAt: app.updatedAt };
}

/** The door's apps use cases over the apps' own. */
export function doorApps(apps: AppsUseCases): DoorAppsUseCases {
  return { listApps: new ListDoorApps(apps), viewApp: new ViewDoorApp(apps), openTool: OPEN_APP_TOOL };
}
