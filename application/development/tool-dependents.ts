import { everyRecord, type RecordSet } from '../../ports/store.js';

/**
 * The extension point behind `POST /sync/impact`: a family whose items depend on tools (apps that
 * call them, automations whose tasks use them, grants that remember them) counts its dependents.
 * Each family binds one under TOKENS.ToolDependents (multi-bound) in its own module.
 */
export interface ToolDependents {
  /** The key the counts appear under: `apps`, `automations`, `grants`. */
  readonly family: string;
  /**
   * Deployment-wide, across every owner: for each given tool, how many of this family's items
   * depend on it (`byTool`, every given tool present, 0 when none), and how many distinct items
   * depend on at least one of them (`total`: an item using two of the tools counts once).
   */
  dependentsOf(tools: ReadonlyArray<string>): Promise<ToolDependentCounts>;
}

export interface ToolDependentCounts {
  readonly total: number;
  readonly byTool: Readonly<Record<string, number>>;
}

/**
 * A family whose stored items name the tools they use (an app's actions, an automation's task):
 * every item is read, and one using several of the given tools counts once in `total`.
 */
export class ItemsNamingTools<P> implements ToolDependents {
  constructor(
    readonly family: string,
    private readonly items: RecordSet<P>,
    private readonly toolsOf: (item: P) => ReadonlyArray<string>,
  ) {}

  async dependentsOf(tools: ReadonlyArray<string>): Promise<ToolDependentCounts> {
    const byTool: Record<string, number> = Object.fromEntries(tools.map((tool) => [tool, 0]));
    let total = 0;
    for (const { data } of await everyRecord(this.items)) {
      const named = new Set(this.toolsOf(data));
      const used = tools.filter((tool) => named.has(tool));
      for (const tool of used) byTool[tool]! += 1;
      if (used.length > 0) total += 1;
    }
    return { total, byTool };
  }
}
