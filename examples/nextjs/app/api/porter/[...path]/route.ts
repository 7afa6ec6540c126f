// Next.js App Router: every Porter path under /api/porter goes to porter.fetch, on the Node runtime.
import { porter } from '../../../../lib/porter.js';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = async (request: Request): Promise<Response> => (await porter()).fetch(request);

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as HEAD, handle as OPTIONS };
