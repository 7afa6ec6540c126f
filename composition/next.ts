/**
 * `porter-runtime/next`: Porter in a Next.js App Router app. Light on purpose: it imports nothing
 * of the runtime (only its types), so `next.config.ts` can load it and `next build` never starts
 * a Porter while it collects the routes.
 */
import type { Porter } from './create-porter.js';

/** An App Router route handler: Next hands it the request, Porter answers it. */
export type PorterRouteHandler = (request: Request) => Promise<Response>;

/** The exports of `app/api/porter/[...porter]/route.ts`: every method goes to `porter.fetch`. */
export interface PorterRouteHandlers {
  readonly GET: PorterRouteHandler;
  readonly POST: PorterRouteHandler;
  readonly PUT: PorterRouteHandler;
  readonly PATCH: PorterRouteHandler;
  readonly DELETE: PorterRouteHandler;
  readonly HEAD: PorterRouteHandler;
  readonly OPTIONS: PorterRouteHandler;
}

export interface PorterRouteOptions {
  /**
   * Which Porter of the process these handlers share (default `porter`): route files that give
   * the same name (the catch-all and a `/.well-known` rewrite target, say) get one Porter, made by
   * whichever file is asked first.
   */
  readonly name?: string;
}

/** The part of Next.js's `NextConfig` that `withPorter` touches (structural: Porter needs no `next` types). */
export interface NextConfigShape {
  serverExternalPackages?: string[] | undefined;
}

/** Porters by name, on `globalThis` so a development hot reload of the route module keeps them. */
const PORTERS = Symbol.for('porter-runtime/next');
type Slot = { porter?: Promise<Porter> };
const slots = (): Map<string, Slot> => {
  const global = globalThis as typeof globalThis & { [PORTERS]?: Map<string, Slot> };
  return (global[PORTERS] ??= new Map());
};

/**
 * The route handlers for a catch-all App Router route under Porter's mount:
 *
 * ```ts
 * // app/api/porter/[...porter]/route.ts
 * export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = createRouteHandlers(() => createPorter({ … }));
 * ```
 *
 * `create` runs on the first request a server process answers, never when the module is imported
 * (so `next build` needs no secret and opens no database); every request after shares its Porter.
 * A creation that fails throws to that request (Next answers 500) and is tried again on the next one.
 * A catch-all segment without `generateStaticParams` is rendered on demand, Cache Components or
 * not, so Next never calls these while it builds; no `runtime` or `dynamic` export is needed
 * (Cache Components refuses both), and the Node runtime is the default.
 */
export function createRouteHandlers(create: () => Porter | Promise<Porter>, options: PorterRouteOptions = {}): PorterRouteHandlers {
  const name = options.name ?? 'porter';
  const porter = (): Promise<Porter> => {
    const slot = slots().get(name) ?? {};
    slots().set(name, slot);
    if (!slot.porter) {
      const creating = Promise.resolve().then(create);
      slot.porter = creating;
      // A failed creation is not kept: the next request tries again (a database that was down, say).
      creating.catch(() => {
        if (slot.porter === creating) delete slot.porter;
      });
    }
    return slot.porter;
  };
  const handle: PorterRouteHandler = async (request) => (await porter()).fetch(request);
  return { GET: handle, POST: handle, PUT: handle, PATCH: handle, DELETE: handle, HEAD: handle, OPTIONS: handle };
}

/** What `withPorter` adds to `serverExternalPackages`: Porter loads its database driver and optional packages itself, at run time. */
export const PORTER_SERVER_EXTERNAL_PACKAGES: readonly string[] = ['porter-runtime'];

/**
 * `next.config.ts`: `export default withPorter({ … })`. Keeps Porter out of Next's server bundle
 * (it runs from node_modules as the Node package it is), so the bundler never goes looking for the
 * optional packages Porter loads only when a configuration names them.
 */
export function withPorter<Config extends object>(nextConfig: Config = {} as Config): Config & { serverExternalPackages: string[] } {
  const externals = new Set([...((nextConfig as NextConfigShape).serverExternalPackages ?? []), ...PORTER_SERVER_EXTERNAL_PACKAGES]);
  return { ...nextConfig, serverExternalPackages: [...externals] };
}
