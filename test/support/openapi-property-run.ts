import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { OpenApiCheck } from './openapi-check.js';
import { SchemaSamples } from './schema-samples.js';
import type { SeededRandom } from './seeded-random.js';

type Json = Record<string, any>;

/** One operation of the document. */
export interface Operation {
  readonly method: string;
  readonly path: string;
  readonly id: string;
  readonly op: Json;
  /** Where its path starts: the wire's mount, or the origin root. */
  readonly server: string;
}

/** A request drawn from an operation's schemas, and which side of them it means to be on. */
export interface DrawnRequest {
  readonly operation: Operation;
  readonly intent: 'valid' | 'invalid';
  /** For an invalid request: the part that breaks the document. */
  readonly broken?: 'path' | 'query' | 'body';
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** What was drawn, before serialising: shown when a check fails. */
  readonly shown: Json;
}

/** What the host answered, read. */
export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly json?: unknown;
  readonly events?: Json[];
  readonly text: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** Every operation of `document`, with the server its path hangs from. */
export function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    const server = (item.servers ?? document.servers)[0].url as string;
    for (const method of Object.keys(item).filter((key) => METHODS.includes(key))) {
      operations.push({
        method: method.toUpperCase(),
        path,
        id: item[method].operationId,
        op: item[method],
        server: server === '/' ? '' : server,
      });
    }
  }
  return operations;
}

/**
 * Draws requests from an operation's parameters and body (JSON or form-encoded), and tells by the
 * document's own schemas (Ajv, draft 2020-12) which side of them a drawn request fell on: a value
 * is kept only when the validator agrees with what it was drawn to be.
 */
export class RequestDrawer {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });
  private readonly compiled = new WeakMap<Json, ValidateFunction>();
  private readonly samples: SchemaSamples;

  constructor(
    private readonly document: Json,
    private readonly random: SeededRandom,
    /** Known values (real ids, names) a path parameter takes when its pattern fits them. */
    private readonly known: ReadonlyArray<string>,
    private readonly headers: Record<string, string>,
  ) {
    (ajvFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.samples = new SchemaSamples(document.components.schemas, random);
  }

  /** Whether `value` fits `schema` (a parameter's or a body's). */
  fits(schema: Json, value: unknown): boolean {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile({ ...schema, components: { schemas: this.document.components.schemas } });
      this.compiled.set(schema, validate);
    }
    return validate(value) as boolean;
  }

  /** A request the document allows, or null when none was found in a few draws. */
  valid(operation: Operation, { knownIds = true } = {}): DrawnRequest | null {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const path = this.pathValues(operation, 'valid', knownIds);
      const query = this.queryValues(operation, 'valid');
      const body = this.bodyValue(operation, 'valid');
      if (path && query && body) return this.request(operation, 'valid', undefined, path, query, body);
    }
    return null;
  }

  /** A request the document refuses in one part, or null when none was found in a few draws. */
  invalid(operation: Operation): DrawnRequest | null {
    const parts = (['path', 'query', 'body'] as const).filter((part) => this.breakable(operation, part));
    if (parts.length === 0) return null;
    for (let attempt = 0; attempt < 30; attempt += 1) {
      const broken = this.random.pick(parts);
      const path = this.pathValues(operation, broken === 'path' ? 'invalid' : 'valid', true);
      const query = this.queryValues(operation, broken === 'query' ? 'invalid' : 'valid');
      const body = this.bodyValue(operation, broken === 'body' ? 'invalid' : 'valid');
      if (path && query && body) return this.request(operation, 'invalid', broken, path, query, body);
    }
    return null;
  }

  private breakable(operation: Operation, part: 'path' | 'query' | 'body'): boolean {
    if (part === 'body') return this.bodyMedia(operation) !== null;
    // A path parameter whose schema takes any string cannot be broken (`/orgs/{rest}` had one).
    return this.parameters(operation, part).some((p) => part === 'query' || p.schema.pattern || p.schema.enum);
  }

  private parameters(operation: Operation, where: 'path' | 'query'): Json[] {
    return (operation.op.parameters ?? []).filter((p: Json) => p.in === where);
  }

  private pathValues(operation: Operation, intent: 'valid' | 'invalid', knownIds: boolean): Record<string, string> | null {
    const params = this.parameters(operation, 'path');
    const values: Record<string, string> = {};
    const broken = intent === 'invalid' ? this.random.pick(params.filter((p) => p.schema.pattern || p.schema.enum)) : undefined;
    for (const param of params) {
      const value = param === broken ? this.invalidPathValue(param.schema) : this.validPathValue(param.schema, knownIds);
      if (value === null) return null;
      values[param.name] = value;
    }
    return values;
  }

  private validPathValue(schema: Json, knownIds: boolean): string | null {
    const known = knownIds ? this.known.filter((value) => this.fits(schema, value)) : [];
    if (known.length > 0 && this.random.chance(0.7)) return this.random.pick(known);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const value = this.samples.valid(schema);
      // `.` and `..` are not path segments a URL keeps; an empty one is another route.
      if (typeof value === 'string' && value !== '' && !/^\.{1,2}$/.test(value) && this.fits(schema, value)) return value;
    }
    return null;
  }

  private invalidPathValue(schema: Json): string | null {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const value = this.samples.invalid(schema);
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      if (text !== '' && !/^\.{1,2}$/.test(text) && !this.fits(schema, text)) return text;
    }
    return null;
  }

  private queryValues(operation: Operation, intent: 'valid' | 'invalid'): Record<string, string> | null {
    const params = this.parameters(operation, 'query');
    const broken = intent === 'invalid' ? this.random.pick(params) : undefined;
    const values: Record<string, string> = {};
    for (const param of params) {
      if (param === broken) {
        const value = this.invalidQueryValue(param);
        if (value === null) return null;
        if (value !== undefined) values[param.name] = value;
        continue;
      }
      if (!param.required && this.random.chance(0.4)) continue;
      let found: string | null = null;
      for (let attempt = 0; attempt < 10 && found === null; attempt += 1) {
        const value = this.samples.valid(param.schema);
        if (
          value !== undefined &&
          value !== null &&
          typeof value !== 'object' &&
          this.fits(param.schema, decodeQuery(param.schema, String(value)))
        )
          found = String(value);
      }
      if (found === null) return null;
      values[param.name] = found;
    }
    return values;
  }

  /** A value the parameter's schema refuses once read from the query, or `undefined` for a required one left out. */
  private invalidQueryValue(param: Json): string | undefined | null {
    if (param.required && this.random.chance(0.2)) return undefined;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const value = this.samples.invalid(param.schema);
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      if (!this.fits(param.schema, decodeQuery(param.schema, text))) return text;
    }
    return null;
  }

  private bodyMedia(operation: Operation): { type: string; schema: Json; required: boolean } | null {
    const content = operation.op.requestBody?.content ?? {};
    for (const type of ['application/json', 'application/x-www-form-urlencoded']) {
      if (content[type]?.schema) return { type, schema: content[type].schema, required: operation.op.requestBody.required ?? false };
    }
    return null;
  }

  /** `[value]` for a drawn body (`[undefined]`: none is sent), or null when none was found. */
  private bodyValue(operation: Operation, intent: 'valid' | 'invalid'): [unknown] | null {
    const media = this.bodyMedia(operation);
    if (!media) return [undefined];
    const form = media.type !== 'application/json';
    if (intent === 'valid' && !media.required && this.random.chance(0.2)) return [undefined];
    if (intent === 'invalid' && media.required && this.random.chance(0.1)) return [undefined];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const drawn = intent === 'valid' ? this.samples.valid(media.schema) : this.samples.invalid(media.schema);
      const value = form ? asForm(drawn) : drawn;
      if (value === undefined) continue;
      if (this.fits(media.schema, value) === (intent === 'valid')) return [value];
    }
    return null;
  }

  private request(
    operation: Operation,
    intent: 'valid' | 'invalid',
    broken: DrawnRequest['broken'],
    path: Record<string, string>,
    query: Record<string, string>,
    [body]: [unknown],
  ): DrawnRequest {
    const filled = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(path[name]!));
    const search = new URLSearchParams(query).toString();
    const media = this.bodyMedia(operation);
    const headers: Record<string, string> = { ...this.headers };
    let text: string | undefined;
    if (body !== undefined && media) {
      headers['content-type'] = media.type;
      text = media.type === 'application/json' ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>).toString();
    } else if (operation.method !== 'GET' && operation.method !== 'DELETE' && !operation.op.requestBody) {
      // The floor reads a POST's body as JSON: say so, as every client of the wire does.
      headers['content-type'] = 'application/json';
    }
    return {
      operation,
      intent,
      ...(broken ? { broken } : {}),
      url: `${operation.server}${filled}${search ? `?${search}` : ''}`,
      headers,
      ...(text !== undefined ? { body: text } : {}),
      shown: { path, query, body },
    };
  }
}

/** A query value as the route reads it: numbers for a numeric schema, else the text. */
function decodeQuery(schema: Json, text: string): unknown {
  const type = schema.type ?? schema.anyOf?.[0]?.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/** A drawn object as a form: every value a string (a structure cannot be sent, so it is dropped). */
function asForm(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const form: Record<string, string> = {};
  for (const [name, member] of Object.entries(value)) {
    if (member === null || typeof member === 'object') return undefined;
    form[name] = String(member);
  }
  return form;
}

/** Sends a drawn request, reads the whole answer (an event stream to its end), within `ms`. */
export async function send(base: string, request: DrawnRequest, ms: number): Promise<Answer> {
  const response = await fetch(`${base}${request.url}`, {
    method: request.operation.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
    redirect: 'manual',
    signal: AbortSignal.timeout(ms),
  });
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (/^application\/json/.test(contentType)) return { status: response.status, contentType, json: JSON.parse(text), text };
  if (/^text\/event-stream/.test(contentType)) return { status: response.status, contentType, events: sseEvents(text), text };
  return { status: response.status, contentType, text };
}

/** The events of an SSE body as the HTML standard reads them: comments skipped, `data` lines joined. */
export function sseEvents(text: string): Json[] {
  const events: Json[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const event: Json = {};
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else event[field] = value;
    }
    if (data.length > 0) events.push({ ...event, data: data.join('\n') });
  }
  return events;
}

/**
 * What is wrong with `answer` to `request` by the document: a 500, a status it does not declare,
 * a JSON body or an event that breaks its declared schema. Empty when nothing is.
 */
export function answerProblems(check: OpenApiCheck, document: Json, request: DrawnRequest, answer: Answer): string[] {
  const { operation } = request;
  const problems: string[] = [];
  if (answer.status >= 500 && answer.status !== 501 && answer.status !== 503)
    problems.push(`answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  const declared = operation.op.responses[String(answer.status)] ?? operation.op.responses.default;
  if (!declared) return [...problems, `answered ${answer.status}, which the document does not declare: ${answer.text.slice(0, 300)}`];
  if (answer.json !== undefined) {
    problems.push(...check.response(operation.method, operation.path, answer.status, answer.json).map((p) => `body: ${p}`));
  }
  if (answer.events) {
    const media = resolved(document, declared).content?.['text/event-stream'];
    if (!media?.schema) problems.push('an event stream the document does not declare');
    else
      for (const [index, event] of answer.events.entries()) {
        const wrong = eventProblems(check, document, media.schema, event);
        if (wrong.length) problems.push(`event ${index} ${JSON.stringify(event).slice(0, 200)}: ${wrong.join('; ')}`);
      }
  }
  return problems;
}

function resolved(document: Json, node: Json): Json {
  return node.$ref
    ? resolved(
        document,
        node.$ref
          .slice(2)
          .split('/')
          .reduce((at: Json, part: string) => at[part], document),
      )
    : node;
}

/**
 * What is wrong with one event by its schema. A validator does not apply `contentSchema` by
 * itself: where the schema of `data` says the text is JSON (`contentMediaType`), the event fits
 * when some branch of it takes the text and, for a JSON branch, its `contentSchema` takes the
 * decoded JSON.
 */
function eventProblems(check: OpenApiCheck, document: Json, schema: Json, event: Json): string[] {
  const structure = check.problems(schema, event);
  if (structure.length) return structure;
  const data = resolved(document, resolved(document, schema).properties?.data ?? {});
  const branches: Json[] = data.anyOf ?? data.oneOf ?? [data];
  const misses: string[] = [];
  for (const branch of branches.map((b) => resolved(document, b))) {
    if (check.problems(branch, event.data).length) continue;
    if (!branch.contentSchema) return [];
    let decoded: unknown;
    try {
      decoded = JSON.parse(event.data as string);
    } catch {
      misses.push('data is not JSON');
      continue;
    }
    const wrong = check.problems(branch.contentSchema, decoded);
    if (wrong.length === 0) return [];
    misses.push(...wrong);
  }
  return misses.length ? misses : ['data fits no branch'];
}
