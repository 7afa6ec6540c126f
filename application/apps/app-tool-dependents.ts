import type { AppPrimitives } from '../../domain/apps/app.js';
import { toolRefs } from '../../domain/apps/app-document.js';
import { everyRecord, type RecordSet } from '../../ports/store.js';
import type { ToolDependentCounts, ToolDependents } from '../development/tool-dependents.js';

/**
 * Apps depend on the host tools their documents' actions run: renaming or removing such a tool
 * leaves a button that can only fail. A development-time read over every app of every owner.
 */
export class AppToolDependents implements ToolDependents {
  readonly family = 'apps';

  constructor(private readonly apps: RecordSet<AppPrimitives>) {}

  async dependentsOf(tools: ReadonlyArray<string>): Promise<ToolDependentCounts> {
    const byTool: Record<string, number> = Object.fromEntries(tools.map((tool) => [tool, 0]));
    let total = 0;
    for (const { data } of await everyRecord(this.apps)) {
      const runs = new Set(toolRefs(data.document));
      const used = tools.filter((tool) => runs.has(tool));
      for (const tool of used) byTool[tool]! += 1;
      if (used.length > 0) total += 1;
    }
    return { total, byTool };
  }
}
