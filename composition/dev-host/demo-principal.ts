import type { PrincipalResolver } from '../../ports/principal-resolver.js';

/**
 * The development host's sign-in: the `porter_demo_user` cookie or the `x-demo-user` header names
 * the user; neither means anonymous. Deliberately naive — it is a demo of the resolver seam.
 */
export const demoPrincipal: PrincipalResolver = (request) => {
  const header = request.headers['x-demo-user'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const name = (fromHeader ?? request.cookie('porter_demo_user') ?? '').trim();
  return name ? { subject: name, kind: 'user', name } : null;
};
