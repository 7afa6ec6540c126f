import type { WireRoutes } from '../wire-routes.js';

/** `GET /doctor/base-url`, in every composition: whether `PORTER_BASE_URL` is set, nothing more. */
export function doctorBaseUrlRoutes(baseUrlSet: boolean): WireRoutes {
  return {
    access: 'open',
    register(router) {
      router.get('/doctor/base-url', (ctx) => {
        ctx.body = { set: baseUrlSet };
      });
    },
  };
}
