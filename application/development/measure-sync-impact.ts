import type { UseCase } from '../../ports/use-case.js';
import type { SyncImpact } from '../../ports/use-cases/development.js';
import type { ToolDependents } from './tool-dependents.js';

/**
 * `POST /sync/impact` (development only, no principal): before a host renames, removes or changes
 * tools, how many apps, automations and grants across the deployment depend on them. A family that
 * is not mounted binds no counter and is absent from the answer.
 */
export class MeasureSyncImpact implements UseCase<{ tools: ReadonlyArray<string> }, SyncImpact> {
  constructor(private readonly dependents: ReadonlyArray<ToolDependents>) {}

  async execute(input: { tools: ReadonlyArray<string> }): Promise<SyncImpact> {
    const tools = [...new Set(input.tools)];
    const families: Record<string, SyncImpact['families'][string]> = {};
    for (const family of [...this.dependents].sort((a, b) => a.family.localeCompare(b.family))) {
      const counts = await family.dependentsOf(tools);
      families[family.family] = { total: counts.total, byTool: Object.fromEntries(tools.map((tool) => [tool, counts.byTool[tool] ?? 0])) };
    }
    return { tools, families };
  }
}
