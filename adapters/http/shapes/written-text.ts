import { z } from 'zod';

/**
 * Text a person writes (a prompt, a name, a title): at most `max` characters as sent, trimmed,
 * and not blank. Every rule is one the OpenAPI document states (`maxLength`, a `\S` pattern), so a
 * client that follows the document is never refused for it.
 */
export function writtenText(max: number): z.ZodString {
  return z.string().max(max).trim().regex(/\S/, 'must not be blank');
}
