import type { Next } from 'koa';
import type { Router } from '@koa/router';
import type { z } from 'zod';
import { NotFound, type ErrorCode } from '../../domain/errors.js';
import { nounOf } from './shapes/path-params.js';
import { parse } from './validation.js';
import { bodyOf, type WireRouteContext, type WireState } from './wire-state.js';
import type { WebHandler } from '../shared/web-handler.js';
import { koaWebHandle } from './web-glue.js';
import { defined } from '../../domain/defined.js';

/**
 * One declaration per wire route: what it accepts and answers. The same declaration registers the
 * Koa handler (which receives the parsed input) and describes the route in the OpenAPI document.
 */

/**
 * `all` answers every method: only a route that refuses whatever comes (`documented: false`), since
 * an operation that only refuses is no operation of the document. A method a path does not take
 * is the router's 405, never a route.
 */
export type RouteMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options' | 'all';

/** A media type's schema: a zod schema, or null where the bytes have no JSON shape (files, pages, streams). */
export type Content = Readonly<Record<string, z.ZodType | null>>;

export interface ResponseHeader {
  readonly description: string;
  readonly schema?: z.ZodType;
}

export interface Answer {
  readonly description: string;
  readonly content?: Content;
  readonly headers?: Readonly<Record<string, ResponseHeader>>;
  /** For a `text/event-stream` answer: the JSON each event's `data` carries (the document then describes each event). */
  readonly events?: z.ZodType;
}

/** A JSON body (read by the floor) that is parsed with `schema` before the handler runs. */
export interface JsonBody<S extends z.ZodType = z.ZodType> {
  readonly kind: 'json';
  readonly schema: S;
  /** How a validation message names it: "The <label> is not valid: …". */
  readonly label: string;
  /** Parses in place of `parse(schema)`, for a body whose refusals say more (it must accept what `schema` accepts). */
  readonly read?: (input: unknown) => z.output<S>;
}

/** A body the handler reads itself (bytes, forms, JSON-RPC): described here, parsed there. */
export interface OwnBody {
  readonly kind: 'own';
  readonly description: string;
  readonly content: Content;
  readonly required: boolean;
}

export type RequestBody = JsonBody | OwnBody;

export type ParamSchemas = Readonly<Record<string, z.ZodType>>;

/** Error envelopes a route answers beyond those the floor implies (see the OpenAPI document). */
export type EnvelopeError = Exclude<ErrorCode, 'internal'>;

/** A security requirement: scheme name → scopes. */
export type SecurityRequirement = Readonly<Record<string, ReadonlyArray<string>>>;

export interface RouteInput<P extends ParamSchemas, Q, B> {
  readonly params: { readonly [K in keyof P]: z.output<P[K]> };
  readonly query: Q extends z.ZodType ? z.output<Q> : undefined;
  readonly body: B extends JsonBody<infer S> ? z.output<S> : undefined;
}

export interface RouteDeclaration<P extends ParamSchemas, Q extends z.ZodType | undefined, B extends RequestBody | undefined> {
  /** The OpenAPI operationId: unique, named like the use case it calls. */
  readonly id: string;
  readonly method: RouteMethod;
  /** Koa-style, relative to the mount (origin routes: from the origin root): `/threads/:id`. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  /** Every path parameter, parsed (in this order) before the query and the body. */
  readonly params?: P;
  /** The whole query, parsed as one object; undeclared means the query is not read. */
  readonly query?: Q;
  readonly body?: B;
  readonly responses: Readonly<Partial<Record<number | 'default', Answer>>>;
  /** Error envelopes this route answers beyond the floor's (which the document adds by itself). */
  readonly errors?: ReadonlyArray<EnvelopeError>;
  /** Overrides the group's security requirements (an empty list: none). */
  readonly security?: ReadonlyArray<SecurityRequirement>;
  /**
   * Answered ahead of the routers, at its exact path and method, for a `self` route that reads
   * nothing the router parses (no params, query or JSON body): a hot path (the MCP transport)
   * skips matching every other route and the floor. Its handler gets no `next` and writes its own
   * answer on `ctx.res` (`ctx.respond = false`), on either lane.
   */
  readonly direct?: boolean;
  /**
   * False for a route that only ever refuses, kept to refuse in its own shape (a door endpoint an
   * external issuer owns): registered, but no operation of the OpenAPI document.
   */
  readonly documented?: false;
  /**
   * For an `origin` route: answers its path exactly, never a prefix or a trailing-slash variant the
   * router would match (a discovery document); another path is passed on.
   */
  readonly exact?: boolean;
  readonly handle: (ctx: WireRouteContext, input: RouteInput<P, Q, B>, next: Next) => unknown;
  /**
   * The route's framework-free handler, when it has one (`Request` in, `Response` out): `handle` is
   * then its Koa glue, and the direct lane answers it with no Koa context at all.
   */
  readonly web?: WebHandler;
}

/** A route as declared: a Koa `handle`, or a framework-free `web` handler (which reads no declared input). */
export type RouteSpec<P extends ParamSchemas, Q extends z.ZodType | undefined, B extends RequestBody | undefined> = Omit<
  RouteDeclaration<P, Q, B>,
  'handle' | 'web'
> &
  ({ readonly handle: RouteDeclaration<P, Q, B>['handle']; readonly web?: never } | { readonly web: WebHandler; readonly handle?: never });

/** A declared route, its input types erased. */
export type WireRoute = RouteDeclaration<ParamSchemas, z.ZodType | undefined, RequestBody | undefined>;

const PATH_PARAM = /:([A-Za-z_][A-Za-z0-9_]*)|\{\*([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The parameter names a Koa path declares: `:id`, and `{*rest}` (the rest of the path, optional). */
export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(PATH_PARAM)].map((match) => (match[1] ?? match[2])!);
}

/** Declares a route. Its path parameters and `params` must name the same parameters. */
export function route<
  P extends ParamSchemas = Record<never, z.ZodType>,
  Q extends z.ZodType | undefined = undefined,
  B extends RequestBody | undefined = undefined,
>(declaration: RouteSpec<P, Q, B>): WireRoute {
  const declared = Object.keys(declaration.params ?? {}).sort();
  const inPath = pathParamsOf(declaration.path).sort();
  if (declared.join() !== inPath.join()) {
    throw new Error(`Route ${declaration.id}: params (${declared.join(', ')}) must match the path's (${inPath.join(', ')})`);
  }
  if (declaration.web) return { ...declaration, handle: koaWebHandle(declaration.web) } as unknown as WireRoute;
  return declaration as unknown as WireRoute;
}

/** A JSON body parsed with `schema` (or `read`); `label` names it in validation messages. */
export function jsonBody<S extends z.ZodType>(schema: S, label = 'body', read?: (input: unknown) => z.output<S>): JsonBody<S> {
  return { kind: 'json', schema, label, ...defined({ read }) };
}

/** A body the handler reads itself. */
export function ownBody(description: string, content: Content, required = true): OwnBody {
  return { kind: 'own', description, content, required };
}

/** An `application/json` answer. */
export function json(description: string, schema: z.ZodType, headers?: Answer['headers']): Answer {
  return { description, content: { 'application/json': schema }, ...defined({ headers }) };
}

/** An answer without a body (204, a redirect) or whose body is not described. */
export function bare(description: string, headers?: Answer['headers']): Answer {
  return { description, ...defined({ headers }) };
}

/** An answer of bytes or text in the given media types, without a JSON shape. */
export function bytes(description: string, ...mediaTypes: string[]): Answer {
  return { description, content: Object.fromEntries(mediaTypes.map((type) => [type, null])) };
}

/**
 * Registers the routes on a Koa router, each handler behind the parsing of its declared input.
 * `ownShapes`: the group answers its failures in its own shapes, so its handlers read the query
 * they declare themselves (the declaration describes it).
 */
export function registerRoutes(router: Router<WireState>, routes: ReadonlyArray<WireRoute>, { ownShapes = false } = {}): void {
  for (const declared of routes) {
    const handler = async (ctx: WireRouteContext, next: Next) => {
      if (declared.exact && ctx.path !== declared.path) return next();
      const params: Record<string, unknown> = {};
      for (const [name, schema] of Object.entries(declared.params ?? {})) params[name] = pathParam(schema, ctx.params[name], name);
      const query = declared.query && !ownShapes ? parse(declared.query, ctx.query, 'query') : undefined;
      const json = declared.body?.kind === 'json' ? declared.body : undefined;
      const body = json ? (json.read ? json.read(bodyOf(ctx)) : parse(json.schema, bodyOf(ctx), json.label)) : undefined;
      return declared.handle(
        ctx,
        { params, query, body } as RouteInput<ParamSchemas, z.ZodType | undefined, RequestBody | undefined>,
        next,
      );
    };
    if (declared.method === 'all') router.all(declared.path, handler);
    else router[declared.method](declared.path, handler);
  }
}

/**
 * A path parameter names something: a value its schema refuses cannot name anything, so the
 * answer is 404 like an unknown id (never 400, never a store lookup).
 */
function pathParam(schema: z.ZodType, value: unknown, name: string): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const noun = nounOf(schema) ?? labelOf(name).replace(/^./, (first) => first.toUpperCase());
  throw new NotFound(noun);
}

/** `recordId` → `record id`, as messages name a path parameter. */
function labelOf(param: string): string {
  return param.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
}
