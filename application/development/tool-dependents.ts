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
