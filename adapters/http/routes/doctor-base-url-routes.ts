import { z } from 'zod';
import { json, route } from '../wire-route.js';
import { openFamily, type WireRoutes } from '../wire-routes.js';

const BaseUrl = z.object({ set: z.boolean() }).meta({ id: 'BaseUrlCheck' });

/** `GET /doctor/base-url`, in every composition: whether `PORTER_BASE_URL` is set, nothing more. */
export function doctorBaseUrlRoutes(baseUrlSet: boolean): WireRoutes {
  return openFamily('Doctor', [
    route({
      id: 'checkBaseUrl',
      method: 'get',
      path: '/doctor/base-url',
      summary: 'Say whether PORTER_BASE_URL is set',
      description: 'Answered in every composition, production included.',
      responses: { 200: json('Whether it is set; never its value.', BaseUrl) },
      handle: (ctx) => {
        ctx.body = { set: baseUrlSet };
      },
    }),
  ]);
}
