import { expect } from 'chai';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import type { StoredGrant } from '../../../domain/guard/grant.js';
import { GrantBook } from '../../../application/guard/grant-book.js';
import { GrantDependents } from '../../../application/development/grant-dependents.js';
import { MeasureSyncImpact } from '../../../application/development/measure-sync-impact.js';
import type { ToolDependents } from '../../../application/development/tool-dependents.js';
import { ManualClock } from '../../support/manual-clock.js';
import { standingGrant } from '../../support/guard-builders.js';

/** A family's counter as the apps or automations family would bind it: items listing the tools they use. */
function family(name: string, items: Record<string, string[]>): ToolDependents {
  return {
    family: name,
    async dependentsOf(tools) {
      const byTool = Object.fromEntries(tools.map((t) => [t, Object.values(items).filter((uses) => uses.includes(t)).length]));
      const total = Object.values(items).filter((uses) => uses.some((u) => tools.includes(u))).length;
      return { total, byTool };
    },
  };
}

describe('MeasureSyncImpact (POST /sync/impact)', () => {
  async function grants() {
    const store = new MemoryStore({ clock: new ManualClock() });
    const records = store.records<StoredGrant>('grants');
    const book = new GrantBook(records);
    await book.save(standingGrant('grt_1', 'ada', 'notes_add'));
    await book.save(standingGrant('grt_2', 'bob', 'notes_add'));
    await book.save(standingGrant('grt_3', 'bob', 'notes_clear'));
    await book.save(standingGrant('grt_4', 'carol', 'notes_add').revoke('2026-06-02T00:00:00.000Z'));
    await book.save(standingGrant('grt_5', 'carol', 'web_fetch'));
    return new GrantDependents(records);
  }

  it('counts active grants per tool across every owner; revoked grants do not depend on anything', async () => {
    const impact = await new MeasureSyncImpact([await grants()]).execute({ tools: ['notes_add', 'notes_clear', 'notes_list'] });
    expect(impact).to.deep.equal({
      tools: ['notes_add', 'notes_clear', 'notes_list'],
      families: { grants: { total: 3, byTool: { notes_add: 2, notes_clear: 1, notes_list: 0 } } },
    });
  });

  it('adds every bound family, counts an item using two of the tools once in its total, and dedupes the tools', async () => {
    const apps = family('apps', { app_1: ['notes_add', 'notes_list'], app_2: ['web_fetch'] });
    const automations = family('automations', { atm_1: ['notes_clear'] });
    const impact = await new MeasureSyncImpact([automations, await grants(), apps]).execute({
      tools: ['notes_add', 'notes_list', 'notes_add'],
    });
    expect(Object.keys(impact.families)).to.deep.equal(['apps', 'automations', 'grants']);
    expect(impact.tools).to.deep.equal(['notes_add', 'notes_list']);
    expect(impact.families.apps).to.deep.equal({ total: 1, byTool: { notes_add: 1, notes_list: 1 } });
    expect(impact.families.automations).to.deep.equal({ total: 0, byTool: { notes_add: 0, notes_list: 0 } });
  });

  it('walks every page of a large deployment', async () => {
    const store = new MemoryStore({ clock: new ManualClock() });
    const records = store.records<StoredGrant>('grants');
    const book = new GrantBook(records);
    for (let i = 0; i < 1203; i++) await book.save(standingGrant(`grt_${String(i).padStart(6, '0')}`, `user${i}`, 'notes_add'));
    const impact = await new MeasureSyncImpact([new GrantDependents(records)]).execute({ tools: ['notes_add'] });
    expect(impact.families.grants).to.deep.equal({ total: 1203, byTool: { notes_add: 1203 } });
  });
});
