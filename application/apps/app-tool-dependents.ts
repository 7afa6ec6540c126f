import type { AppPrimitives } from '../../domain/apps/app.js';
import { toolRefs } from '../../domain/apps/app-document.js';
import type { RecordSet } from '../../ports/store.js';
import { ItemsNamingTools } from '../development/tool-dependents.js';

/**
 * Apps depend on the host tools their documents' actions run: renaming or removing such a tool
 * leaves a button that can only fail. A development-time read over every app of every owner.
 */
export class AppToolDependents extends ItemsNamingTools<AppPrimitives> {
  constructor(apps: RecordSet<AppPrimitives>) {
    super('apps', apps, (app) => toolRefs(app.document));
  }
}
