import { SqliteRunner } from '../../adapters/store/mikro-orm/sqlite-runner.js';
const counts = new Map<string, number>();
let on = false;
for (const m of ['rows', 'changes'] as const) {
  const orig = (SqliteRunner.prototype as any)[m];
  (SqliteRunner.prototype as any)[m] = function (st: { sql: string }) { if (on) counts.set(st.sql.slice(0, 90), (counts.get(st.sql.slice(0, 90)) ?? 0) + 1); return orig.apply(this, arguments); };
}
(globalThis as any).__sqlOn = (v: boolean) => (on = v);
(globalThis as any).__sqlCounts = counts;
