import { z } from 'zod';
import type { DoctorUseCases } from '../../../ports/use-cases/doctor.js';
import { ActAsCheck, PresentCheck } from '../shapes/system-shapes.js';
import { json, jsonBody, route } from '../wire-route.js';
import { openFamily, type WireRoutes } from '../wire-routes.js';
import { openRoutes } from './caller-routes.js';
import { defined } from '../../../domain/defined.js';

const actAsBody = z.strictObject({ subject: z.string().min(1).max(512).optional() }).optional();

const Echo = z.object({ authorization: z.boolean(), cookie: z.boolean() }).meta({ id: 'PresentEcho' });

/**
 * `POST /doctor/present`, `POST /doctor/act-as` and the echo the present check reaches. Development
 * only (production answers 404 because they are not mounted); booleans only; no principal.
 */
export function doctorRoutes(doctor: DoctorUseCases): WireRoutes {
  return openFamily('Doctor', [
    route({
      id: 'checkPresent',
      method: 'post',
      path: '/doctor/present',
      summary: 'Check that a present call reaches the host with its credentials',
      description: 'Development only. Makes a synthetic same-origin call to the echo and reports booleans only.',
      responses: { 200: json('What reached the host.', PresentCheck) },
      handle: async (ctx) => {
        const cookie = ctx.get('cookie');
        const authorization = ctx.get('authorization');
        ctx.body = await doctor.checkPresent.execute(defined({ cookie: cookie || undefined, authorization: authorization || undefined }));
      },
    }),
    route({
      id: 'echoPresent',
      method: 'get',
      path: '/doctor/present/echo',
      summary: 'Say whether authorization and a cookie arrived',
      description: 'Development only: what the present check reaches.',
      responses: { 200: json('Booleans only.', Echo) },
      handle: (ctx) => {
        ctx.body = { authorization: ctx.get('authorization') !== '', cookie: ctx.get('cookie') !== '' };
      },
    }),
    openRoutes(doctor).post('/doctor/act-as', 'checkActAs', {
      summary: 'Check that act-as mints material the host accepts',
      description: "Development only. Mints for `subject` with the `actAs` preset and asks the host's resolver; booleans only.",
      body: jsonBody(actAsBody),
      responses: { 200: json('Each step, as a boolean.', ActAsCheck) },
    }),
  ]);
}
