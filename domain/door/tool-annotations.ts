import type { Risk } from '../guard/risk.js';

/** MCP tool annotations (hints for the outside agent's own UI; the guard still decides). */
export interface ToolHints {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly openWorldHint: boolean;
}

/**
 * Hints from a tool's declared risk: reads are read-only, destructive tools say so, and a tool that
 * reaches outside the host (egress) is open-world. A tool whose risk is resolved at call time is
 * described by its declared risk; the guard rules on the resolved one.
 */
export function hintsFor(risk: Risk, egress: boolean): ToolHints {
  return { readOnlyHint: risk === 'read', destructiveHint: risk === 'destructive', openWorldHint: egress };
}
