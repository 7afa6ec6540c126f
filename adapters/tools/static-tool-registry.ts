import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { TOOL_NAME, TOOL_NAME_RULE } from '../../domain/guard/tool-name.js';
import type { InputCheck, JsonSchema, RegisteredTool, ToolDefinition, ToolRegistry } from '../../ports/tool-registry.js';

/**
 * The tools known at boot: the host's and Porter's own. Each input is checked before the guard
 * rules on it: by the tool's own schema (`input`, a Standard Schema, whose parsed value the tool
 * then receives) or, for a tool with only a JSON Schema, by Ajv.
 */
export class StaticToolRegistry implements ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(definitions: ReadonlyArray<ToolDefinition>) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    // ajv-formats is CommonJS; its callable export arrives as the default.
    (ajvFormats as unknown as (instance: Ajv) => void)(ajv);
    for (const definition of definitions) {
      if (!TOOL_NAME.test(definition.name)) throw new Error(`Tool name "${definition.name}" must be ${TOOL_NAME_RULE} (${TOOL_NAME})`);
      if (this.tools.has(definition.name)) throw new Error(`Two tools are named "${definition.name}"`);
      const checkInput = definition.input ? standardCheck(definition.input) : jsonSchemaCheck(ajv, definition.name, definition.inputSchema);
      this.tools.set(
        definition.name,
        Object.assign(Object.create(definition) as ToolDefinition, definition, { checkInput }) as RegisteredTool,
      );
    }
  }

  list(): ReadonlyArray<RegisteredTool> {
    return [...this.tools.values()];
  }

  get(name: string): RegisteredTool | null {
    return this.tools.get(name) ?? null;
  }
}

function jsonSchemaCheck(ajv: Ajv, name: string, schema: JsonSchema): (input: unknown) => Promise<InputCheck> {
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new Error(`Tool "${name}" has an invalid input schema: ${(error as Error).message}`, { cause: error });
  }
  return async (input) =>
    validate(input)
      ? { ok: true, value: input }
      : { ok: false, issues: (validate.errors ?? []).map((e) => `${e.instancePath || '(input)'} ${e.message ?? 'is invalid'}`) };
}

/** The schema decides, asynchronous refinements included; a schema that throws fails the input, not the caller. */
function standardCheck(schema: StandardSchemaV1): (input: unknown) => Promise<InputCheck> {
  return async (input) => {
    try {
      const result = await schema['~standard'].validate(input);
      if (!result.issues) return { ok: true, value: result.value };
      return { ok: false, issues: result.issues.length ? result.issues.map(describeIssue) : ['(input) is invalid'] };
    } catch (error) {
      return { ok: false, issues: [`(input) could not be checked: ${error instanceof Error ? error.message : String(error)}`] };
    }
  };
}

/** An issue as Ajv words it (`/items/0/name must…`), so every tool's refusals read alike. */
function describeIssue(issue: StandardSchemaV1.Issue): string {
  const path = (issue.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment));
  return `${path.length ? `/${path.join('/')}` : '(input)'} ${issue.message}`;
}
