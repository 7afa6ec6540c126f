import { z } from 'zod';
import { BLOB_KEY, COLLECTION, KEY, RECORD_KEY } from '../../../domain/apps/app-document.js';
import { APPROVAL_REF } from '../../../domain/guard/approval.js';
import { ID_PREFIXES, idPattern, type IdKind } from '../../../domain/ids.js';

/**
 * Path parameters name things. A value of a shape nothing can have (a NUL byte, a control
 * character, an absurd length, another kind's prefix) names nothing: the route answers 404
 * `not-found` before any store is asked, on every store, like an unknown id. The pattern is in the
 * OpenAPI document.
 */

const NOUNS = new WeakMap<z.ZodType, string>();

/** What a path parameter names, for the 404 message ("Thread was not found"). */
export function nounOf(schema: z.ZodType): string | undefined {
  return NOUNS.get(schema);
}

function named<S extends z.ZodType>(schema: S, noun: string): S {
  NOUNS.set(schema, noun);
  return schema;
}

const NOUN_BY_KIND: Partial<Record<IdKind, string>> = {
  thread: 'Thread',
  file: 'File',
  app: 'App',
  automation: 'Automation',
  run: 'Run',
  grant: 'Grant',
  connection: 'Connection',
  version: 'Version',
  memory: 'Memory',
  document: 'Document',
  passage: 'Passage',
};

/** A server-minted id of `kind`: its prefix and 10 to 64 URL-safe characters. */
export function idParam(kind: IdKind, description?: string): z.ZodString {
  const prefix = ID_PREFIXES[kind];
  const noun = NOUN_BY_KIND[kind] ?? 'Item';
  return named(
    z
      .string()
      .regex(idPattern(kind), `must be ${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun.toLowerCase()} id (${prefix}…)`)
      .describe(description ?? `${/^[aeiou]/i.test(noun) ? 'An' : 'A'} ${noun.toLowerCase()} id (\`${prefix}…\`).`),
    noun,
  );
}

/** An approval's `apr_` id or the tool-call id it parked (models and MCP clients mint those): visible ASCII, at most 256. */
export const approvalRefParam = named(
  z
    .string()
    .regex(APPROVAL_REF, 'must be an approval id or a tool-call id (visible ASCII, at most 256 characters)')
    .describe('The `apr_` id, or the parked tool-call id.'),
  'Approval',
);

/** A name chosen by an app or its client (collection, record id, blob key, function, action). */
function nameParam(pattern: RegExp, noun: string, description: string): z.ZodString {
  return named(z.string().regex(pattern, `must be a ${noun.toLowerCase()} name`).describe(description), noun);
}

export const collectionParam = nameParam(COLLECTION, 'Collection', 'A collection name: 1..64 letters, digits, `_` or `-`.');
export const recordIdParam = nameParam(RECORD_KEY, 'Record', 'A record id: 1..128 letters, digits, `_` or `-`.');
export const blobKeyParam = nameParam(
  BLOB_KEY,
  'Blob',
  'A blob key: 1..128 letters, digits, `.`, `_` or `-`, starting with a letter or digit.',
);
export const functionNameParam = nameParam(KEY, 'Function', "The server function's name.");
export const actionNameParam = nameParam(KEY, 'Action', "The app action's name.");
