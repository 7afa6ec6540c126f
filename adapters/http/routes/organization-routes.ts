import { z } from 'zod';
import { OrganizationsRequireCloud } from '../../../domain/errors.js';
import { route } from '../wire-route.js';
import type { WireRoutes } from '../wire-routes.js';

const refusal = {
  summary: 'Refused: organizations are a Porter Cloud capability',
  description: 'Every method answers 402 `cloud-required`, before any principal resolution.',
  responses: {},
  errors: ['cloud-required'],
  handle: () => {
    throw new OrganizationsRequireCloud();
  },
} as const;

/** `ANY /orgs[/*]`, refused before anything else runs (the wire registers it ahead of every family). */
export const organizationRoutes: WireRoutes = {
  access: 'self',
  tag: 'Organizations',
  security: [],
  routes: [
    route({ ...refusal, id: 'refuseOrganizations', method: 'all', path: '/orgs' }),
    route({
      ...refusal,
      id: 'refuseOrganizationPaths',
      method: 'all',
      path: '/orgs/{*rest}',
      params: { rest: z.string().optional().describe('Anything under `/orgs`.') },
    }),
  ],
};
