import { z } from 'zod';
import type { Principal } from '../../../domain/principal.js';
import type { UseCase } from '../../../ports/use-case.js';
import { bare, jsonBody, pathParamsOf, route, type Answer, type EnvelopeError, type JsonBody, type WireRoute } from '../wire-route.js';
import { principalOf, type WireRouteContext } from '../wire-state.js';
import { defined } from '../../../domain/defined.js';

/**
 * Most principal routes hand one use case the caller and what the request names (the id of one of
 * the caller's things, a page query, a JSON body) and answer what it returns. `callerRoutes`
 * declares those from the use case's name, which is also the route's operationId, so a family's
 * table says only its paths and what the document tells of them. Routes that shape their input or
 * their answer otherwise are declared with `route` as before.
 */

/** A page of the caller's things: every list pages alike. */
export const pageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).optional().describe('How many to answer (1–100).'),
  cursor: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe("The previous page's `nextCursor`. A cursor this list did not produce is 400 `validation`."),
});

/**
 * What a POST that takes no input accepts: nothing, or `{}` (what a client that always sends JSON
 * sends). Anything else is refused, so a field the route does not read is never silently ignored.
 */
const noBody = jsonBody(z.union([z.undefined(), z.strictObject({})]));

/** What a DELETE answers unless it declares another answer. */
const deleted = { 204: bare('Deleted.') } as const;

/** The one answer of a caller route: 200 with what the use case returns, 201 with what it created, or 204. */
type CallerAnswer = { readonly 200: Answer } | { readonly 201: Answer } | { readonly 204: Answer };

/** What a caller route declares beyond its method, path and use case. */
export interface CallerRouteDoc<Q extends z.ZodType | undefined, B extends z.ZodType | undefined, A extends true | undefined> {
  /** The operationId where it is not the use case's name. */
  readonly id?: string;
  readonly summary: string;
  readonly description?: string;
  /** Spread into the use case's input (a page, filters). */
  readonly query?: Q;
  /** Spread into the use case's input; a strict object. A POST that declares none accepts no body or `{}`. */
  readonly body?: B extends z.ZodType ? JsonBody<B> : undefined;
  /** Hands the use case `signal`, aborted when the caller goes away (a generation stops). */
  readonly signal?: A;
  readonly responses: CallerAnswer;
  readonly errors?: ReadonlyArray<EnvelopeError>;
}

/** The family's thing a path names by `:id`, and the key its use cases read that id under (`runId`). */
export interface CallerThing<K extends string> {
  readonly param: z.ZodType<string>;
  readonly key: K;
  /** What its paths name within it (`:collection`, `:recordId`), read under their own names. */
  readonly within?: Readonly<Record<string, z.ZodType<string>>>;
  /** What every route of the family may answer, besides what each declares (no broker: `not-implemented`). */
  readonly errors?: ReadonlyArray<EnvelopeError>;
}

/** The parameters a Koa path names: `/apps/:id/records/:collection` → `id` | `collection`. */
type ParamsOf<P extends string> = P extends `${string}/:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : P extends `${string}/:${infer Name}`
    ? Name
    : never;

type Output<S extends z.ZodType | undefined> = S extends z.ZodType ? z.output<S> : unknown;

/** Who a route acts for: the caller (its use case receives the principal), or nobody (an open route). */
type Caller = { principal: Principal };

/** What the use case receives: the caller, the thing `:id` names (where the path names one), the query, the body and the signal. */
type CallerInput<W, K extends string, P extends string, Q extends z.ZodType | undefined, B extends z.ZodType | undefined, A> = W &
  ('id' extends ParamsOf<P> ? Record<K, string> : unknown) &
  Record<Exclude<ParamsOf<P>, 'id'>, string> &
  Output<Q> &
  Output<B> &
  (A extends true ? { signal: AbortSignal } : unknown);

/** The names of the use cases in `U` that take `I`, or nothing (what they are handed they do not read). */
type UseCaseTaking<U, I> = {
  [N in keyof U]: U[N] extends UseCase<infer Input, unknown> ? (I extends Input ? N : [Input] extends [void] ? N : never) : never;
}[keyof U] &
  string;

/** A DELETE's doc, whose answer is `204 Deleted.` unless it says another. */
type DeleteDoc<Q extends z.ZodType | undefined, B extends z.ZodType | undefined, A extends true | undefined> = Omit<
  CallerRouteDoc<Q, B, A>,
  'responses'
> & { readonly responses?: CallerAnswer };

type Declare<U, K extends string, Query extends z.ZodType | undefined = undefined, W = Caller, Doc extends 'delete' | 'other' = 'other'> = <
  P extends string,
  Q extends z.ZodType | undefined = Query,
  B extends z.ZodType | undefined = undefined,
  A extends true | undefined = undefined,
>(
  path: P,
  useCase: UseCaseTaking<U, CallerInput<W, K, P, Q, B, A>>,
  doc: Doc extends 'delete' ? DeleteDoc<Q, B, A> : CallerRouteDoc<Q, B, A>,
) => WireRoute;

export interface CallerRoutes<U, K extends string> {
  /** A GET of the caller's things, a page at a time: the query is `pageQuery` unless it says another. */
  readonly list: Declare<U, K, typeof pageQuery>;
  readonly get: Declare<U, K>;
  readonly post: Declare<U, K>;
  readonly patch: Declare<U, K>;
  readonly delete: Declare<U, K, undefined, Caller, 'delete'>;
}

/** Declares routes that call `useCases` for the caller; a path with `:id` names `thing`, and maybe what is within it. */
export function callerRoutes<U, K extends string = never>(useCases: U, thing?: CallerThing<K>): CallerRoutes<U, K> {
  const declare = (method: 'get' | 'post' | 'patch' | 'delete', paged = false) => useCaseRoute<U, K>(useCases, thing, method, paged, true);
  return {
    list: declare('get', true) as Declare<U, K, typeof pageQuery>,
    get: declare('get'),
    post: declare('post'),
    patch: declare('patch'),
    // Its doc may leave out the answer: `useCaseRoute` answers `deleted` then.
    delete: declare('delete') as unknown as Declare<U, K, undefined, Caller, 'delete'>,
  };
}

/**
 * Declares open routes (development, the doctor) that hand `useCases` what the request carries,
 * like caller routes but for nobody: their group takes no principal.
 */
export function openRoutes<U>(useCases: U): { readonly post: Declare<U, never, undefined, unknown> } {
  return { post: useCaseRoute<U, never, unknown>(useCases, undefined, 'post', false, false) };
}

function useCaseRoute<U, K extends string, W = Caller>(
  useCases: U,
  thing: CallerThing<K> | undefined,
  method: 'get' | 'post' | 'patch' | 'delete',
  paged: boolean,
  forCaller: boolean,
): Declare<U, K, undefined, W> {
  return (path, name, { id, responses = deleted, signal, errors = [], ...doc }) => {
    const schemas: Record<string, z.ZodType<string>> = { ...thing?.within, ...defined({ id: thing ? thing.param : undefined }) };
    const names = pathParamsOf(path);
    for (const param of names) if (!schemas[param]) throw new Error(`Route ${name}: the family declares no :${param}`);
    const useCase = useCases[name as keyof U] as UseCase<Record<string, unknown>, unknown>;
    const statuses = Object.keys(responses);
    if (statuses.length !== 1) throw new Error(`Route ${name}: a caller route has one answer`);
    const status = Number(statuses[0]);
    return route({
      id: id ?? name,
      method,
      path,
      ...defined({ query: paged ? pageQuery : undefined, body: method === 'post' ? noBody : undefined }),
      ...doc,
      ...defined({ params: names.length > 0 ? Object.fromEntries(names.map((param) => [param, schemas[param]!])) : undefined }),
      responses,
      errors: [...(thing?.errors ?? []), ...errors],
      handle: async (ctx, input) => {
        const { params, query, body } = input as { params: Record<string, string>; query?: object; body?: object };
        if (status === 201) ctx.status = 201;
        // Who asks and what the path names come last: nothing a query or body carries can stand in for them.
        const answer = await useCase.execute({
          ...query,
          ...body,
          ...Object.fromEntries(names.map((param) => [param === 'id' ? thing!.key : param, params[param]])),
          ...defined({ principal: forCaller ? principalOf(ctx) : undefined, signal: signal ? requestSignal(ctx) : undefined }),
        });
        if (status === 204) ctx.status = 204;
        else ctx.body = answer;
      },
    });
  };
}

/** Aborts generation (or an app's tool call) when the person who asked for it goes away. */
export function requestSignal(ctx: WireRouteContext): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}
