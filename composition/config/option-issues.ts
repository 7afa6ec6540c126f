import { z } from 'zod';
import { nearestName } from './nearest-name.js';

/** One problem with an option, at its full path (e.g. `['sandbox', 'contaiment']`). */
export interface OptionIssue {
  readonly path: ReadonlyArray<PropertyKey>;
  readonly message: string;
}

/**
 * zod's issues for options parsed by `schema`, in the words an operator acts on. zod says
 * `Unrecognized key: "maxStep"` at the enclosing object; a typo is the likeliest cause, so each
 * unknown key is named at its own path with the known key it most likely meant ("did you mean
 * `maxSteps`?"), found among the keys the schema takes at that place. `root` prefixes every path
 * (`['limits']` when only the `limits` option was parsed).
 */
export function optionIssues(
  schema: z.ZodType,
  input: unknown,
  issues: ReadonlyArray<z.core.$ZodIssue>,
  root: ReadonlyArray<string> = [],
): OptionIssue[] {
  return issues.flatMap((issue): OptionIssue[] => {
    if (issue.code !== 'unrecognized_keys') return [{ path: [...root, ...issue.path], message: issue.message }];
    const place = [...root, ...issue.path];
    const known = knownKeysAt(schema, issue.path, input);
    return issue.keys.map((key) => ({ path: [...place, key], message: unknownKeyMessage(key, place, known) }));
  });
}

function unknownKeyMessage(key: string, place: ReadonlyArray<PropertyKey>, known: ReadonlyArray<string>): string {
  const meant = nearestName(key, known);
  if (meant !== undefined) return `unknown option — did you mean \`${[...place, meant].join('.')}\`?`;
  if (place.length === 0 || known.length === 0) return 'unknown option; docs/configuration.md lists every option';
  return `unknown option; \`${place.join('.')}\` takes ${known.join(', ')}`;
}

/** The keys the schema takes for the object at `path` of `input` (the branch a union's value chose). */
function knownKeysAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>, input: unknown): string[] {
  let places: z.ZodType[] = [schema];
  let value = input;
  for (const segment of path) {
    places = places
      .flatMap((place) => shapesOf(place, value))
      .flatMap((shape): z.ZodType[] => {
        if (shape instanceof z.ZodObject && typeof segment === 'string' && Object.hasOwn(shape.shape, segment))
          return [shape.shape[segment] as z.ZodType];
        if (shape instanceof z.ZodRecord && typeof segment === 'string') return [shape.valueType as z.ZodType];
        if (shape instanceof z.ZodArray && typeof segment === 'number') return [shape.element as z.ZodType];
        return [];
      });
    value = childOf(value, segment);
  }
  const keys = places
    .flatMap((place) => shapesOf(place, value))
    .flatMap((shape) => (shape instanceof z.ZodObject ? Object.keys(shape.shape) : []));
  return [...new Set(keys)];
}

/**
 * What a value at this place is checked against, past optional, default, transform and union
 * wrappers: objects, records and arrays. A discriminated union gives only the branch the value's
 * discriminator names (all of them when it names none).
 */
function shapesOf(schema: z.ZodType, value: unknown): z.ZodType[] {
  if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodNonOptional ||
    schema instanceof z.ZodReadonly ||
    schema instanceof z.ZodCatch
  )
    return shapesOf(schema.unwrap() as z.ZodType, value);
  if (schema instanceof z.ZodPipe) return shapesOf(schema.in as z.ZodType, value);
  if (schema instanceof z.ZodDiscriminatedUnion) {
    const options = schema.options as z.ZodType[];
    const discriminator = schema.def.discriminator;
    const named = options.filter(
      (option) =>
        option instanceof z.ZodObject &&
        (option.shape[discriminator] as z.ZodType | undefined)?.safeParse(childOf(value, discriminator)).success,
    );
    return (named.length ? named : options).flatMap((option) => shapesOf(option, value));
  }
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap((option) => shapesOf(option, value));
  if (schema instanceof z.ZodObject || schema instanceof z.ZodRecord || schema instanceof z.ZodArray) return [schema];
  return [];
}

function childOf(value: unknown, key: PropertyKey): unknown {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
  return (value as Record<PropertyKey, unknown>)[key];
}
