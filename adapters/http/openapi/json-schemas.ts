import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const DEFS = '#/$defs/';
const COMPONENTS = '#/components/schemas/';

/**
 * zod schemas as the OpenAPI document's JSON Schemas (draft 2020-12, from `z.toJSONSchema`, input
 * side: what a client sends, and for answers their plain shape). Schemas named with
 * `meta({id})` become `components.schemas` entries referenced by `$ref`; so do recursive ones,
 * under a name made from where they were met.
 */
export class SchemaBook {
  readonly components: Record<string, JsonSchema> = {};
  private readonly converted = new Map<z.ZodType, JsonSchema>();

  /** The JSON Schema for `schema`, met first at `where` (which names its anonymous recursive parts). */
  schemaOf(schema: z.ZodType, where: string): JsonSchema {
    let converted = this.converted.get(schema);
    if (!converted) this.converted.set(schema, (converted = this.convert(schema, where)));
    return converted;
  }

  private convert(schema: z.ZodType, where: string): JsonSchema {
    const {
      $schema: _dialect,
      $defs = {},
      ...root
    } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    const names = new Map<string, string>();
    let anonymous = 0;
    for (const name of Object.keys($defs)) names.set(name, name.startsWith('__schema') ? `${where}Part${++anonymous}` : name);
    const relink = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(relink);
      if (typeof node !== 'object' || node === null) return node;
      return Object.fromEntries(
        Object.entries(node).map(([key, value]) => [
          key,
          key === '$ref' && typeof value === 'string' && value.startsWith(DEFS)
            ? `${COMPONENTS}${names.get(value.slice(DEFS.length))}`
            : relink(value),
        ]),
      );
    };
    for (const [name, def] of Object.entries($defs)) this.keep(names.get(name)!, relink(def) as JsonSchema);
    return relink(root) as JsonSchema;
  }

  private keep(name: string, schema: JsonSchema): void {
    const known = this.components[name];
    if (known && JSON.stringify(known) !== JSON.stringify(schema)) throw new Error(`Two different schemas are named ${name}`);
    this.components[name] = schema;
  }
}

/** The schema without its "no body at all" alternative (`undefined` in a union, `.optional()`). */
export function withoutAbsence(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional) return schema.unwrap() as z.ZodType;
  if (schema instanceof z.ZodUnion) {
    const present = (schema.options as z.ZodType[]).filter((option) => !(option instanceof z.ZodUndefined));
    if (present.length === 1) return present[0]!;
    if (present.length !== schema.options.length) return z.union(present as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  }
  return schema;
}
