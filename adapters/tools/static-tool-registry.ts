import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { InputCheck, RegisteredTool, ToolDefinition, ToolRegistry } from '../../ports/tool-registry.js';

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * The tools known at boot: the host's and Porter's own. Inputs are checked against each tool's
 * JSON Schema (Ajv) before the guard rules on them.
 */
export class StaticToolRegistry implements ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(definitions: ReadonlyArray<ToolDefinition>) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    // ajv-formats is CommonJS; its callable export arrives as the default.
    (ajvFormats as unknown as (instance: Ajv) => void)(ajv);
    for (const definition of definitions) {
      if (!TOOL_NAME.test(definition.name)) throw new Error(`Tool name "${definition.name}" must match ${TOOL_NAME}`);
      if (this.tools.has(definition.name)) throw new Error(`Two tools are named "${definition.name}"`);
      let validate: ValidateFunction;
      try {
        validate = ajv.compile(definition.inputSchema);
      } catch (error) {
        throw new Error(`Tool "${definition.name}" has an invalid input schema: ${(error as Error).message}`);
      }
      const checkInput = (input: unknown): InputCheck =>
        validate(input) ? { ok: true } : { ok: false, issues: (validate.errors ?? []).map((e) => `${e.instancePath || '(input)'} ${e.message ?? 'is invalid'}`) };
      this.tools.set(definition.name, Object.assign(Object.create(definition) as ToolDefinition, definition, { checkInput }) as RegisteredTool);
    }
  }

  list(): ReadonlyArray<RegisteredTool> {
    return [...this.tools.values()];
  }

  get(name: string): RegisteredTool | null {
    return this.tools.get(name) ?? null;
  }
}
