import { z } from 'zod';
import type { DoctorUseCases } from '../../../ports/use-cases/doctor.js';
import { parse } from '../validation.js';
import type { WireRoutes } from '../wire-routes.js';
import { bodyOf } from '../wire-state.js';

const actAsBody = z.strictObject({ subject: z.string().min(1).max(512).optional() }).optional();

/**
 * `POST /doctor/present`, `POST /doctor/act-as` and the echo the present check reaches. Development
 * only (production answers 404 because they are not mounted); booleans only; no principal.
 */
export function doctorRoutes(doctor: DoctorUseCases): WireRoutes {
  return {
    access: 'open',
    register(router) {
      router.post('/doctor/present', async (ctx) => {
        const cookie = ctx.get('cookie');
        const authorization = ctx.get('authorization');
        ctx.body = await doctor.checkPresent.execute({ ...(cookie ? { cookie } : {}), ...(authorization ? { authorization } : {}) });
      });
      router.get('/doctor/present/echo', (ctx) => {
        ctx.body = { authorization: ctx.get('authorization') !== '', cookie: ctx.get('cookie') !== '' };
      });
      router.post('/doctor/act-as', async (ctx) => {
        ctx.body = await doctor.checkActAs.execute(parse(actAsBody, bodyOf(ctx), 'body') ?? {});
      });
    },
  };
}
