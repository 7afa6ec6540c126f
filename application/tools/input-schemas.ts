import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { toJSONSchema, type core } from 'zod';
import type { JsonSchema } from '../../ports/tool-registry.js';
import { defined } from '../../domain/defined.js';

/**
 * How a tool's input schema becomes the two things Porter needs: a JSON Schema to show the model
 * and the door, and a Standard Schema to check and parse every input with.
 */
export interface ResolvedInput {
  readonly inputSchema: JsonSchema;
  /** Absent for a bare JSON Schema: the registry checks the input against it as it is. */
  readonly input?: StandardSchemaV1;
}

/** Draft-07: what the AI SDK sends providers for its own zod tools, and what Ajv checks by default. */
const TARGET = 'draft-07';

/** The AI SDK marks its `jsonSchema()` schemas with this registered symbol. */
const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');

interface AiSdkSchema {
  readonly jsonSchema: unknown;
  readonly validate?: (value: unknown) => AiSdkValidation | PromiseLike<AiSdkValidation>;
}

type AiSdkValidation = { readonly success: true; readonly value: unknown } | { readonly success: false; readonly error: Error };

export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null || !('~standard' in value)) return false;
  const props = (value as StandardSchemaV1)['~standard'];
  return typeof props === 'object' && props !== null && typeof props.validate === 'function';
}

function isAiSdkSchema(value: unknown): value is AiSdkSchema {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[AI_SDK_SCHEMA] === true && 'jsonSchema' in value;
}

export function isJsonSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isStandardSchema(value) && !isAiSdkSchema(value);
}

/**
 * A Standard Schema (`defineTool`'s `input`): it checks and parses; the JSON Schema is the one given,
 * else for zod 4 `z.toJSONSchema` of its input side, else the schema's own Standard JSON Schema.
 */
export function fromStandardSchema(tool: string, schema: StandardSchemaV1, given?: JsonSchema): ResolvedInput {
  // zod hangs a (hidden) Standard Schema on the JSON Schema it returns: only the JSON is kept.
  return { input: schema, inputSchema: given ?? objectSchema(tool, { ...describe(tool, schema) }) };
}

/**
 * What an AI SDK tool's `inputSchema` may be: a zod or other Standard Schema, the SDK's
 * `jsonSchema()` (checked by its `validate` when it has one, else as JSON Schema), a lazy schema,
 * or a bare JSON Schema object.
 */
export function fromFlexibleSchema(tool: string, schema: unknown): ResolvedInput {
  if (isStandardSchema(schema)) return fromStandardSchema(tool, schema);
  if (typeof schema === 'function') return fromFlexibleSchema(tool, (schema as () => unknown)());
  if (isAiSdkSchema(schema)) {
    const json = schema.jsonSchema;
    if (!isJsonSchemaObject(json))
      throw new Error(`tool "${tool}": its jsonSchema() must hold the JSON Schema itself (a promised one cannot be registered at boot)`);
    const validate = schema.validate;
    return { inputSchema: objectSchema(tool, json), ...defined({ input: validate ? fromValidate(validate) : undefined }) };
  }
  if (isJsonSchemaObject(schema)) return { inputSchema: schema };
  throw new Error(
    `tool "${tool}": inputSchema must be a zod schema, a Standard Schema, the AI SDK's jsonSchema(…) or a JSON Schema object`,
  );
}

function describe(tool: string, schema: StandardSchemaV1): JsonSchema {
  const props = schema['~standard'] as StandardSchemaV1.Props & Partial<Pick<StandardJSONSchemaV1.Props, 'jsonSchema'>>;
  try {
    // zod 4 (classic or mini), with the options that describe what the model must send.
    if (props.vendor === 'zod' && '_zod' in schema)
      return toJSONSchema(schema as unknown as core.$ZodType, { target: TARGET, io: 'input' });
    if (props.jsonSchema) return props.jsonSchema.input({ target: TARGET });
  } catch (error) {
    throw new Error(
      `tool "${tool}": its input schema cannot be written as JSON Schema (${error instanceof Error ? error.message : String(error)}); ` +
        'use only JSON types in it, or pass inputSchema (the JSON Schema the model and the door are shown) beside input',
      { cause: error },
    );
  }
  const zod3 = props.vendor === 'zod' ? ' (zod 3 schemas cannot; zod 4 ones can)' : '';
  throw new Error(
    `tool "${tool}": its input schema (${props.vendor}) does not describe itself as JSON Schema${zod3}; ` +
      'pass inputSchema (the JSON Schema the model and the door are shown) beside input',
  );
}

/** The model sends named arguments: whatever else a schema describes cannot be a tool's input. */
function objectSchema(tool: string, schema: JsonSchema): JsonSchema {
  if (schema.type !== undefined && schema.type !== 'object') {
    throw new Error(`tool "${tool}": its input must be an object of named arguments, not ${JSON.stringify(schema.type)}`);
  }
  return schema;
}

/** The AI SDK's `validate(value)` as a Standard Schema, its error's issues kept when it carries them. */
function fromValidate(validate: NonNullable<AiSdkSchema['validate']>): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'ai-sdk',
      async validate(value) {
        const result = await validate(value);
        return result.success ? { value: result.value } : { issues: issuesOf(result.error) };
      },
    },
  };
}

function issuesOf(error: Error): ReadonlyArray<StandardSchemaV1.Issue> {
  const carried = [(error as { issues?: unknown }).issues, error.cause].find(Array.isArray) as unknown[] | undefined;
  const issues = (carried ?? []).filter(
    (issue): issue is StandardSchemaV1.Issue => typeof (issue as StandardSchemaV1.Issue | null)?.message === 'string',
  );
  return issues.length ? issues : [{ message: error.message || 'is invalid' }];
}
