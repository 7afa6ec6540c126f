import type { ToolDefinition } from '../../ports/tool-registry.js';

/** A tool whose calls wait until the test opens its gate, so a turn stays in flight as long as the test needs. */
export interface GatedTool {
  readonly tool: ToolDefinition;
  /** Lets every call, waiting or still to come, finish with the tool's output. */
  open(): void;
}

/** `gatedTool({ name, description, risk, output })`: a tool taking an empty object that answers `output` once the gate opens. */
export function gatedTool(definition: Pick<ToolDefinition, 'name' | 'description' | 'risk'> & { readonly output: unknown }): GatedTool {
  const { output, ...fields } = definition;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    tool: { ...fields, inputSchema: { type: 'object' }, execute: async () => (await gate, output) },
    open,
  };
}
