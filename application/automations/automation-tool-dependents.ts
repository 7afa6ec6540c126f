import type { AutomationPrimitives } from '../../domain/automations/automation.js';
import { everyRecord, type RecordSet } from '../../ports/store.js';
import type { ToolDependentCounts, ToolDependents } from '../development/tool-dependents.js';

/**
 * Automations depend on the tools their task names: arming asked standing grants for them, and a
 * run will call them while the owner is away. A development-time read over every automation.
 */
export class AutomationToolDependents implements ToolDependents {
  readonly family = 'automations';

  constructor(private readonly automations: RecordSet<AutomationPrimitives>) {}

  async dependentsOf(tools: ReadonlyArray<string>): Promise<ToolDependentCounts> {
    const byTool: Record<string, number> = Object.fromEntries(tools.map((tool) => [tool, 0]));
    let total = 0;
    for (const { data } of await everyRecord(this.automations)) {
      const used = tools.filter((tool) => data.task.tools?.includes(tool));
      for (const tool of used) byTool[tool]! += 1;
      if (used.length > 0) total += 1;
    }
    return { total, byTool };
  }
}
