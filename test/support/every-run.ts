import type { Porter } from '../../composition/create-porter.js';
import { containerOf } from '../../composition/porter-container.js';
import { get } from '../../composition/tokens.js';
import { RUN_TOKENS } from '../../composition/modules/runs-tokens.js';
import type { Principal } from '../../domain/principal.js';

/** Every run `principal` sees on `porter`, page after page. */
export async function everyRun(porter: Porter, principal: Principal) {
  const runs = get(containerOf(porter), RUN_TOKENS.RunUseCases);
  const all = [];
  let cursor: string | null = null;
  do {
    const page = await runs.listRuns.execute({ principal, limit: 100, ...(cursor ? { cursor } : {}) });
    all.push(...page.runs);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}
