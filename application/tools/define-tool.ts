import type { StandardSchemaV1 } from '@standard-schema/spec';
import { RISKS, type Risk } from '../../domain/guard/risk.js';
import { TOOL_NAME, TOOL_NAME_RULE } from '../../domain/guard/tool-name.js';
import type { JsonSchema, PorterToolFields, ToolContext, ToolDefinition } from '../../ports/tool-registry.js';

export type { PorterToolFields } from '../../ports/tool-registry.js';
import { fromFlexibleSchema, fromStandardSchema, isJsonSchemaObject, isStandardSchema, type ResolvedInput } from './input-schemas.js';
import { defined } from '../../domain/defined.js';

/** A tool whose input is a zod 4 schema, or any Standard Schema. */
export interface TypedToolSpec<Schema extends StandardSchemaV1> extends PorterToolFields<StandardSchemaV1.InferOutput<Schema>> {
  readonly description: string;
  /** Checks and parses every input; `execute` gets the parsed value (defaults and transforms applied). */
  readonly input: Schema;
  /**
   * The JSON Schema the model and the door are shown. Derived from `input` when left out (zod 4, or
   * a schema implementing Standard JSON Schema); required for a schema that cannot describe itself.
   */
  readonly inputSchema?: JsonSchema;
  execute(input: StandardSchemaV1.InferOutput<Schema>, context: ToolContext): unknown;
}

/**
 * The AI SDK's `FlexibleSchema`, described by its shape: a `jsonSchema()` or `zodSchema()` schema
 * (its `_type`), a lazy one, or any Standard Schema (zod 4). Named here rather than imported because
 * @ai-sdk/provider-utils' declarations do not pass `exactOptionalPropertyTypes`, and Porter's must.
 */
export type AiSdkInputSchema<Input> = { readonly _type: Input } | (() => { readonly _type: Input }) | StandardSchemaV1<unknown, Input>;

/**
 * An AI SDK `tool({ description, inputSchema, execute })` with Porter's `name` and `risk` beside it
 * (spread it in). `execute` gets the parsed input and Porter's ToolContext, which is also the SDK's
 * `ToolExecutionOptions` (`toolCallId`, `abortSignal`, empty `messages`, and `context` undefined, as
 * the SDK gives a tool without `toolsContext`). Porter runs the tool itself, through its guard: the
 * SDK's other fields (providerOptions, toModelOutput, onInput…) are not used.
 */
export interface AiSdkToolSpec<Input> extends PorterToolFields<Input> {
  /**
   * What the model reads. Typed as the SDK's (which may compute it from a tool context), but Porter
   * shows the same description to the model, the door and the chrome: it must be a string.
   */
  readonly description?: string | ((options: never) => string) | undefined;
  readonly title?: string | undefined;
  readonly inputSchema: AiSdkInputSchema<Input>;
  /** Called with the parsed input and Porter's ToolContext (see above). */
  readonly execute?: ((input: Input, options: never) => unknown) | undefined;
  /** The SDK's approval switch. Porter asks by `risk`, so a tool that needs approval cannot be `read`. */
  readonly needsApproval?: unknown;
  /** Refused: Porter does not pass the SDK's `toolsContext`; its own context (principal, session, fetch…) is the second argument. */
  readonly contextSchema?: unknown;
  /** `function` or `dynamic` (as the SDK writes them, `undefined` too); a `provider` tool is refused. */
  readonly type?: string | undefined;
}

/** Anything `defineTool` accepts, its input type erased (for options and records of tools). */
export type ToolSpec = TypedToolSpec<StandardSchemaV1> | AiSdkToolSpec<unknown> | ToolDefinition;

/** The tools defineTool made: given one again, it returns it as it is. */
const madeHere = new WeakSet<object>();

/**
 * Defines a tool the agent, apps, automations and the door can call (always through the guard),
 * with `execute` typed from its input schema:
 *
 * - `input`: a zod 4 schema (or any Standard Schema). The model and the door are shown its JSON
 *   Schema; every input is checked and parsed with it, and input that fails becomes an error the
 *   caller reads, never a crash.
 * - an AI SDK tool spread in: `defineTool({ name, risk, ...tool({ description, inputSchema, execute }) })`.
 * - the plain form: `inputSchema` a JSON Schema, checked as it is (what `tools` took before).
 *
 * Throws, naming the tool, when the definition is wrong.
 */
export function defineTool<Schema extends StandardSchemaV1>(
  spec: TypedToolSpec<Schema>,
): ToolDefinition<StandardSchemaV1.InferOutput<Schema>>;
export function defineTool<Input>(spec: AiSdkToolSpec<Input>): ToolDefinition<Input>;
export function defineTool(spec: ToolDefinition): ToolDefinition;
/** A tool whose shape is only known at run time (options, a registry of tools). */
export function defineTool(spec: ToolSpec): ToolDefinition;
export function defineTool(spec: ToolSpec): ToolDefinition {
  if (typeof spec !== 'object' || spec === null)
    throw new Error('defineTool: a tool is an object ({ name, description, input, risk, execute })');
  if (madeHere.has(spec)) return spec as ToolDefinition;
  const fields = spec as unknown as Partial<Record<string, unknown>>;
  const name = fields.name;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new Error(`defineTool: name must be ${TOOL_NAME_RULE}${typeof name === 'string' ? ` (got "${name}")` : ''}`);
  }
  const fail = (message: string): never => {
    throw new Error(`tool "${name}": ${message}`);
  };
  if (typeof fields.risk !== 'string' || !RISKS.includes(fields.risk as Risk)) fail(`risk must be one of ${RISKS.join(', ')}`);
  if (fields.egress !== undefined && typeof fields.egress !== 'boolean') fail('egress must be true or false');
  if (fields.connection !== undefined && typeof fields.connection !== 'string') fail('connection must be a toolkit name');
  if (fields.readOnly !== undefined && typeof fields.readOnly !== 'boolean') fail('readOnly must be true or false');
  if (fields.idempotent !== undefined && typeof fields.idempotent !== 'boolean') fail('idempotent must be true or false');
  if (fields.readOnly === true && fields.risk !== 'read')
    fail(`readOnly: true says it changes nothing, but its risk is '${String(fields.risk)}'`);
  for (const hook of ['resolveRisk', 'preview', 'approvalContext'] as const) {
    if (fields[hook] !== undefined && typeof fields[hook] !== 'function') fail(`${hook} must be a function`);
  }
  if (typeof fields.execute !== 'function') {
    fail(
      fields.type === 'provider'
        ? 'a provider-defined tool runs at the model provider, out of reach of the guard'
        : 'execute(input, context) is required: Porter runs every tool itself',
    );
  }

  const ai = fields.input === undefined && !isJsonSchemaObject(fields.inputSchema);
  if (ai && fields.contextSchema !== undefined) {
    fail("contextSchema: Porter does not pass the AI SDK's toolsContext; read the caller from execute's second argument instead");
  }
  if (ai && (fields.needsApproval === true || typeof fields.needsApproval === 'function') && fields.risk === 'read') {
    fail("needsApproval says it must ask, but risk 'read' never asks: give it risk 'write' or 'destructive'");
  }
  const description = fields.description ?? (ai ? (fields.title ?? '') : undefined);
  if (typeof description !== 'string') fail('description must be a string (the model reads it to decide when to call the tool)');

  const resolved = resolveInput(name, spec, fail);
  const execute = fields.execute as (input: unknown, context: ToolContext) => unknown;
  const tool: ToolDefinition = {
    name,
    description: description as string,
    inputSchema: resolved.inputSchema,
    ...defined({ input: resolved.input }),
    risk: fields.risk as Risk,
    ...defined({
      egress: fields.egress as boolean | undefined,
      connection: fields.connection as string | undefined,
      readOnly: fields.readOnly as boolean | undefined,
      idempotent: fields.idempotent as boolean | undefined,
    }),
    ...pick(spec as ToolDefinition, ['resolveRisk', 'preview', 'approvalContext']),
    // An AI SDK tool may stream preliminary results: its output is the last one.
    execute: async (input, context) => finalOutput(await execute.call(spec, input, context)),
  };
  madeHere.add(tool);
  return tool;
}

function resolveInput(name: string, spec: ToolSpec, fail: (message: string) => never): ResolvedInput {
  try {
    if ('input' in spec && spec.input !== undefined) {
      if (!isStandardSchema(spec.input)) return fail('input must be a zod 4 schema or another Standard Schema (with ~standard.validate)');
      if (spec.inputSchema !== undefined && !isJsonSchemaObject(spec.inputSchema))
        return fail('inputSchema beside input must be a JSON Schema object');
      return fromStandardSchema(name, spec.input, spec.inputSchema);
    }
    if (spec.inputSchema === undefined) return fail('needs input (a zod or Standard Schema) or inputSchema (a JSON Schema)');
    return fromFlexibleSchema(name, spec.inputSchema);
  } catch (error) {
    // The schema helpers already name the tool.
    throw error instanceof Error && error.message.startsWith(`tool "${name}"`)
      ? error
      : new Error(`tool "${name}": ${error instanceof Error ? error.message : String(error)}`);
  }
}

function pick<K extends keyof ToolDefinition>(spec: ToolDefinition, keys: ReadonlyArray<K>): Partial<Pick<ToolDefinition, K>> {
  const picked: Partial<Pick<ToolDefinition, K>> = {};
  for (const key of keys) if (spec[key] !== undefined) picked[key] = spec[key];
  return picked;
}

async function finalOutput(output: unknown): Promise<unknown> {
  if (typeof output !== 'object' || output === null || !(Symbol.asyncIterator in output)) return output;
  let last: unknown;
  for await (const value of output as AsyncIterable<unknown>) last = value;
  return last;
}
