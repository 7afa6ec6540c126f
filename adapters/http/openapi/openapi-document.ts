import { z } from 'zod';
import type { ErrorCode } from '../../../domain/errors.js';
import { STATUS_BY_CODE } from '../error-envelope.js';
import { ErrorEnvelope } from '../shapes/common-shapes.js';
import type { Answer, RouteMethod, SecurityRequirement, WireRoute } from '../wire-route.js';
import type { RouteAccess, WireRoutes } from '../wire-routes.js';
import { envelopeErrorsOf, errorResponse, errorResponseName } from './error-responses.js';
import { SchemaBook, withoutAbsence, type JsonSchema } from './json-schemas.js';
import { defined } from '../../../domain/defined.js';

export interface OpenApiOptions {
  /** Where the wire is mounted, e.g. `/api/porter`. */
  readonly mount: string;
  /** Porter's version. */
  readonly version: string;
  /** Every mounted group of routes: only these appear. */
  readonly groups: ReadonlyArray<WireRoutes>;
}

export type OpenApiDocument = Record<string, unknown> & { readonly paths: Record<string, Record<string, unknown>> };

/** Who a principal route may be: the host's signed-in person, or the anonymous cookie session (minted when absent). */
const PRINCIPAL_SECURITY: ReadonlyArray<SecurityRequirement> = [{ hostSession: [] }, { anonymousSession: [] }, {}];

const PRINCIPAL_SCHEMES = {
  hostSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description:
      "Whatever the host's `principal(req)` resolver reads to know who is signed in: usually the host's own session cookie (its name is the host's), or a header it checks. Porter never sees how.",
  },
  anonymousSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'porter_anon',
    description:
      'Before sign-in: a signed, HttpOnly, SameSite=Lax cookie (`__Host-porter_anon` over https) that Porter mints on the first request without one. The first signed-in request that carries it adopts its threads, apps and state, and retires it.',
  },
} as const;

/**
 * The wire as an OpenAPI 3.1 document, built from the route declarations of the mounted groups:
 * paths relative to the mount (origin-root documents carry their own `servers`), JSON Schemas
 * from the zod schemas the routes parse with, and the error envelope on every failure a route can
 * answer.
 */
export function openApiDocument(options: OpenApiOptions): OpenApiDocument {
  const book = new SchemaBook();
  const envelope = book.schemaOf(ErrorEnvelope, 'ErrorEnvelope');
  const errorCodes = new Set<ErrorCode>();
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  const tags: string[] = [];
  const schemes: Record<string, unknown> = {};

  const add = (path: string, method: Exclude<RouteMethod, 'all'>, operation: Record<string, unknown>) => {
    const item = (paths[path] ??= {});
    if (item[method]) throw new Error(`${method.toUpperCase()} ${path} is declared twice`);
    const id = operation.operationId as string;
    if (operationIds.has(id)) throw new Error(`The operationId ${id} is used twice`);
    operationIds.add(id);
    item[method] = operation;
  };

  for (const group of options.groups) {
    if (!tags.includes(group.tag)) tags.push(group.tag);
    Object.assign(schemes, group.securitySchemes ?? {});
    for (const declared of group.routes) {
      const path = openApiPath(declared.path);
      if (declared.documented === false) continue;
      if (declared.method === 'all')
        throw new Error(`Route ${declared.id} answers every method: only a route that only refuses can, undocumented`);
      const operation = operationOf(group, declared, declared.id, book, envelope, errorCodes);
      add(path, declared.method, operation);
      if (group.access === 'origin') paths[path]!.servers = [{ url: '/', description: 'The origin root, outside the wire.' }];
    }
  }

  for (const name of referencedSchemes(paths)) {
    if (name in PRINCIPAL_SCHEMES) schemes[name] ??= PRINCIPAL_SCHEMES[name as keyof typeof PRINCIPAL_SCHEMES];
    if (!(name in schemes)) throw new Error(`The security scheme ${name} is used but no group defines it`);
  }
  // No operation answers it (its method is the one the path takes), yet any path may: documented once.
  errorCodes.add('method-not-allowed');
  const responses = Object.fromEntries([...errorCodes].sort().map((code) => [errorResponseName(code), errorResponse(code, envelope)]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Porter wire',
      version: options.version,
      description:
        "Porter's HTTP wire as this deployment mounts it (families it does not mount are absent): threads streamed over SSE in the AI SDK UI message stream, approvals and grants, and, where mounted, generated apps, automations and runs, webhooks, connections and the MCP door. " +
        'Every non-2xx wire answer is the error envelope `{"error": {"code", "message", "details"?}}`; the MCP door answers in OAuth and JSON-RPC shapes instead. Paths are case-sensitive. ' +
        'A method a path does not take (`TRACE` too) is 405 with `Allow` listing those it takes (`components.responses.MethodNotAllowed`; the door in its own shapes). ' +
        '`/orgs` and everything under it, with any method, is 402 `cloud-required`: organizations are a Porter Cloud capability.',
    },
    servers: [{ url: options.mount === '' ? '/' : options.mount, description: 'The wire, where the host mounted it.' }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: { schemas: book.components, responses, securitySchemes: schemes },
  };
}

/** `/apps/:id/view/{*rest}` → `/apps/{id}/view/{rest}`. */
export function openApiPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}').replace(/\{\*([A-Za-z_][A-Za-z0-9_]*)\}/g, '{$1}');
}

function operationOf(
  group: WireRoutes,
  declared: WireRoute,
  operationId: string,
  book: SchemaBook,
  envelope: JsonSchema,
  errorCodes: Set<ErrorCode>,
): Record<string, unknown> {
  const name = operationId[0]!.toUpperCase() + operationId.slice(1);
  const parameters = [...pathParameters(declared, book, name), ...queryParameters(declared, book, name)];
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(declared.responses))
    if (answer) responses[status] = responseOf(answer, book, `${name}${status}`);
  if (group.errorShape !== 'own') {
    for (const code of envelopeErrorsOf(group.access, declared, declared.path)) {
      errorCodes.add(code);
      responses[String(STATUS_BY_CODE[code])] ??= { $ref: `#/components/responses/${errorResponseName(code)}` };
    }
  }
  return {
    tags: [group.tag],
    summary: declared.summary,
    ...defined({ description: declared.description || undefined }),
    operationId,
    ...defined({ parameters: parameters.length > 0 ? parameters : undefined }),
    ...requestBodyOf(declared, book, name),
    responses: sortedByStatus(responses),
    security: declared.security ?? group.security ?? defaultSecurity(group.access),
  };
}

function referencedSchemes(paths: Record<string, Record<string, unknown>>): Set<string> {
  const names = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      for (const requirement of (operation as { security?: SecurityRequirement[] }).security ?? [])
        for (const name of Object.keys(requirement)) names.add(name);
    }
  }
  return names;
}

function defaultSecurity(access: RouteAccess): ReadonlyArray<SecurityRequirement> {
  return access === 'principal' ? PRINCIPAL_SECURITY : [];
}

function pathParameters(declared: WireRoute, book: SchemaBook, name: string): JsonSchema[] {
  return Object.entries(declared.params ?? {}).map(([param, schema]) =>
    parameter(param, 'path', true, book.schemaOf(schema, `${name}Path`)),
  );
}

function queryParameters(declared: WireRoute, book: SchemaBook, name: string): JsonSchema[] {
  if (!declared.query) return [];
  const query = book.schemaOf(declared.query, `${name}Query`) as { properties?: Record<string, JsonSchema>; required?: string[] };
  if (!query.properties) throw new Error(`The query of ${declared.id} must be an object schema`);
  return Object.entries(query.properties).map(([param, schema]) =>
    parameter(param, 'query', query.required?.includes(param) ?? false, schema),
  );
}

/** A Parameter Object; the schema's description becomes the parameter's. */
function parameter(name: string, where: 'path' | 'query', required: boolean, schema: JsonSchema): JsonSchema {
  const { description, ...rest } = schema;
  return {
    name,
    in: where,
    required,
    ...defined({ description: typeof description === 'string' ? description : undefined }),
    schema: rest,
  };
}

function requestBodyOf(declared: WireRoute, book: SchemaBook, name: string): { requestBody?: JsonSchema } {
  const body = declared.body;
  if (!body) return {};
  if (body.kind === 'json') {
    const required = !body.schema.safeParse(undefined).success;
    const schema = book.schemaOf(withoutAbsence(body.schema), `${name}Body`);
    return { requestBody: { required, content: { 'application/json': { schema } } } };
  }
  const content = Object.fromEntries(
    Object.entries(body.content).map(([type, schema]) => [type, schema ? { schema: book.schemaOf(schema, `${name}Body`) } : {}]),
  );
  return { requestBody: { description: body.description, required: body.required, content } };
}

function responseOf(answer: Answer, book: SchemaBook, name: string): JsonSchema {
  const headers = answer.headers
    ? Object.fromEntries(
        Object.entries(answer.headers).map(([header, { description, schema }]) => [
          header,
          { description, schema: book.schemaOf(schema ?? z.string(), `${name}Header`) },
        ]),
      )
    : undefined;
  const content = answer.content
    ? Object.fromEntries(
        Object.entries(answer.content).map(([type, schema]) => [
          type,
          answer.events && type === 'text/event-stream'
            ? { schema: eventSchema(book.schemaOf(answer.events, `${name}Event`)) }
            : schema
              ? { schema: book.schemaOf(schema, name) }
              : {},
        ]),
      )
    : undefined;
  return { description: answer.description, ...defined({ headers, content }) };
}

/**
 * One event of a `text/event-stream` answer whose `data` is JSON. OpenAPI 3.1 has no field for the
 * items of a stream (3.2 adds `itemSchema`); as the 3.2 registry models an event, and as tools
 * reading 3.1 documents (Schemathesis, Speakeasy) take `schema` there, this is the schema of each
 * event: an object of its fields, `data` the JSON text (`contentMediaType`, `contentSchema`) or
 * the closing `[DONE]`. Comment lines (`: keep-alive`) are no events.
 */
function eventSchema(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    description:
      'One server-sent event (this schema describes each event of the stream, as OpenAPI 3.2 `itemSchema` does): its `data` line is a chunk as JSON, or `[DONE]` after the last. Comment lines (`: keep-alive`) are sent while nothing else is and are no events.',
    properties: {
      data: {
        anyOf: [
          { type: 'string', contentMediaType: 'application/json', contentSchema: data },
          { const: '[DONE]', description: 'The stream is complete.' },
        ],
      },
    },
    required: ['data'],
    additionalProperties: false,
  };
}

function sortedByStatus(responses: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => (a === 'default' ? 1 : b === 'default' ? -1 : Number(a) - Number(b))),
  );
}
