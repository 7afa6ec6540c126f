import type { Risk } from '../guard/risk.js';

/** MCP tool annotations (hints for the outside agent's own UI; the guard still decides). */
export interface ToolHints {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly openWorldHint: boolean;
}

/** What the hints are drawn from: the tool's declared risk and egress, and what it says about writing. */
export interface HintSource {
  readonly risk: Risk;
  readonly egress?: boolean;
  /** Declared by the tool; absent, a `read` tool whose risk is not resolved at call time. */
  readonly readOnly?: boolean;
  /** True when its risk is resolved at call time (it may turn out higher than declared). */
  readonly resolvesRisk?: boolean;
}

/**
 * Hints from a tool's declaration: read-only only for a `read` tool that does not say it writes
 * (and whose risk cannot rise at call time), since clients auto-approve read-only tools; a tool
 * that writes is never read-only. Destructive tools say so, and a tool that reaches outside the
 * host (egress) is open-world. The guard still rules on every call.
 */
export function hintsFor(tool: HintSource): ToolHints {
  const readOnly = tool.risk === 'read' && (tool.readOnly ?? !tool.resolvesRisk);
  return { readOnlyHint: readOnly, destructiveHint: tool.risk === 'destructive', openWorldHint: tool.egress ?? false };
}
