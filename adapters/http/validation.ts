import type { z } from 'zod';
import { InvalidInput } from '../../domain/errors.js';

/** Parses wire input with a strict schema; failures become `validation` with every issue listed. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, what = 'request'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  throw new InvalidInput(
    `The ${what} is not valid: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
    issues,
  );
}
