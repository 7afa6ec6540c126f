import type { ToolDefinition } from '../../ports/tool-registry.js';

/**
 * A tool whose calls hold until the test opens its gate, for tests that act while a call is under
 * way: `started` settles once a call has begun, `release` lets every call finish with `result`.
 */
export function gatedTool(definition: Pick<ToolDefinition, 'name' | 'description' | 'risk'>, result: unknown) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let begun!: () => void;
  const started = new Promise<void>((resolve) => (begun = resolve));
  const tool: ToolDefinition = {
    ...definition,
    inputSchema: { type: 'object' },
    execute: async () => (begun(), await gate, result),
  };
  return { tool, started, release };
}
