import { expect } from 'chai';
import { DatabaseSchema, SchemaComparator, type AbstractSqlDriver } from '@mikro-orm/knex';
import type { MikroORM } from '@mikro-orm/core';
import { DomainError } from '../../../domain/errors.js';
import type { MikroOrmStore } from '../../../adapters/store/mikro-orm/mikro-orm-store.js';
import { POSTGRESQL_MIGRATIONS } from '../../../adapters/store/mikro-orm/migrations/postgresql/migration-list.js';
import { SQLITE_MIGRATIONS } from '../../../adapters/store/mikro-orm/migrations/sqlite/migration-list.js';
import { MIGRATIONS_TABLE } from '../../../adapters/store/mikro-orm/record-schema.js';
import { MemoryStore } from '../../../adapters/store/memory/memory-store.js';
import type { Logger } from '../../../ports/logger.js';
import type { Store } from '../../../ports/store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { closedAfter } from '../../support/closed-after.js';

/** Opens the engine's store over one database; each call is another instance on the same data. */
export type OpenMikroOrmStore = (options: { clock: ManualClock; logger?: Logger; migrate?: boolean }) => Promise<MikroOrmStore>;

/** A logger that keeps what it was told, for assertions. */
export function recordingLogger(): Logger & { readonly lines: Array<{ message: string; fields?: Record<string, unknown> }> } {
  const lines: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  const keep = (message: string, fields?: Record<string, unknown>) => void lines.push({ message, fields });
  return { lines, info: keep, warn: keep, error: keep };
}

async function sql<R>(store: MikroOrmStore, text: string, params: unknown[] = []): Promise<R[]> {
  return store.mikroOrm.em.getConnection().execute<R[]>(text, params, 'all');
}

/**
 * The checked-in migrations must build exactly what the EntitySchema mappings describe. On SQLite
 * foreign keys are left out: MikroORM 6 reads a composite foreign key back from SQLite as one key
 * per column, so it would always report a difference there.
 */
async function schemaDrift(orm: MikroORM<AbstractSqlDriver>, compareForeignKeys: boolean): Promise<string[]> {
  const em = orm.em;
  const platform = em.getPlatform();
  // The text index's tables (an FTS5 virtual table and its shadow tables; tsvector and GIN) are
  // beyond what a MikroORM mapping describes: the text index conformance suite checks them instead.
  const actual = await DatabaseSchema.create(em.getConnection(), platform, orm.config, undefined, undefined, undefined, [/^porter_text_/]);
  const mapped = DatabaseSchema.fromMetadata(Object.values(orm.getMetadata().getAll()), platform, orm.config);
  const diff = new SchemaComparator(platform).compare(actual, mapped);
  const drift: string[] = [];
  drift.push(...Object.keys(diff.newTables).map((name) => `missing table ${name}`));
  drift.push(
    ...Object.keys(diff.removedTables)
      .filter((name) => !name.endsWith(MIGRATIONS_TABLE))
      .map((name) => `unmapped table ${name}`),
  );
  for (const [name, table] of Object.entries(diff.changedTables)) {
    const parts: Record<string, object> = {
      'added column': table.addedColumns,
      'removed column': table.removedColumns,
      'changed column': table.changedColumns,
      'added index': table.addedIndexes,
      'removed index': table.removedIndexes,
      'changed index': table.changedIndexes,
      ...(compareForeignKeys
        ? {
            'added foreign key': table.addedForeignKeys,
            'removed foreign key': table.removedForeignKeys,
            'changed foreign key': table.changedForeignKeys,
          }
        : {}),
    };
    for (const [what, entries] of Object.entries(parts)) drift.push(...Object.keys(entries).map((key) => `${name}: ${what} ${key}`));
  }
  return drift;
}

/** What every engine of the MikroORM store must also do, beyond the port's conformance suite. */
export function describeMikroOrmStoreBehaviour(label: string, open: () => OpenMikroOrmStore | Promise<OpenMikroOrmStore | null>): void {
  describe(`MikroORM store behaviour: ${label}`, function () {
    let openStore: OpenMikroOrmStore | null;

    before(async function () {
      openStore = await open();
      if (!openStore) this.skip();
    });

    const opened = closedAfter<Store>({ each: true });

    async function fresh(options: { logger?: Logger; migrate?: boolean } = {}): Promise<MikroOrmStore> {
      const store = await openStore!({ clock: new ManualClock('2026-03-01T10:00:00.000Z'), ...options });
      opened.push(store);
      return store;
    }

    it('applies its migrations once: opening again applies nothing and records each migration once', async () => {
      const first = recordingLogger();
      await fresh({ logger: first });
      expect(first.lines.filter((line) => line.message === 'store migrations applied')).to.have.length(1);
      const second = recordingLogger();
      const again = await fresh({ logger: second });
      expect(second.lines.filter((line) => line.message === 'store migrations applied')).to.deep.equal([]);
      const rows = await sql<{ name: string }>(again, `select name from ${MIGRATIONS_TABLE} order by id`);
      const expected = (again.kind === 'postgresql' ? POSTGRESQL_MIGRATIONS : SQLITE_MIGRATIONS).map((migration) => migration.name);
      expect(rows.map((row) => row.name)).to.deep.equal(expected);
    });

    it('builds exactly the tables, columns and indexes the EntitySchema mappings describe', async () => {
      const store = await fresh();
      expect(await schemaDrift(store.mikroOrm, store.kind === 'postgresql')).to.deep.equal([]);
    });

    it("keeps the refs index equal to every record's refs through put, swap, claim and delete", async () => {
      const store = await fresh();
      const name = `mirror_${Date.now()}`;
      const set = store.records<{ v: number }>(name);
      const mirror = async () =>
        (
          await sql<{ record_id: string; name: string; value: string }>(
            store,
            'select record_id, name, "value" from porter_record_refs where collection = ? order by record_id, name',
            [name],
          )
        ).map((row) => `${row.record_id}.${row.name}=${row.value}`);
      const a = await set.put({ id: 'a', data: { v: 1 }, refs: { owner: 'u1', thread: 't1' } });
      await set.put({ id: 'b', data: { v: 1 }, refs: { owner: 'u2' } });
      expect(await mirror()).to.deep.equal(['a.owner=u1', 'a.thread=t1', 'b.owner=u2']);
      await set.atomic!.compareAndSwap('a', a.revision, { data: { v: 2 }, refs: { owner: 'u3' } });
      expect(await mirror()).to.deep.equal(['a.owner=u3', 'b.owner=u2']);
      const b = await set.put({ id: 'b', data: { v: 2 }, refs: { owner: 'u2' } });
      expect(await set.claim!(b, { data: { v: 3 }, refs: {} })).to.equal(true);
      expect(await mirror()).to.deep.equal(['a.owner=u3']);
      expect(await set.claim!((await set.get('a'))!)).to.equal(true);
      expect(await mirror()).to.deep.equal([]);
      await set.put({ id: 'c', data: { v: 1 }, refs: { owner: 'u4' } });
      await set.delete('c');
      expect(await mirror()).to.deep.equal([]);
    });

    it('hands data back exactly as written: key order, \\u0000, bare values, and undefined as null', async () => {
      const store = await fresh();
      const set = store.records<unknown>(`fidelity_${Date.now()}`);
      const values: unknown[] = [
        { z: 1, a: { y: [3, 'x\u0000y', { b: null, a: false }], x: 1.5e300 }, m: -0.5, 'key with "quotes"': '\\' },
        42,
        'just text',
        null,
        true,
        [1, [2, [3]]],
      ];
      for (const [i, data] of values.entries()) {
        const put = await set.put({ id: `v${i}`, data });
        const got = await set.get(`v${i}`);
        expect(JSON.stringify(got?.data), `value ${i}`).to.equal(JSON.stringify(data));
        expect(JSON.stringify(put.data), `value ${i} as put answered it`).to.equal(JSON.stringify(data));
      }
      await set.put({ id: 'undefined', data: undefined });
      expect((await set.get('undefined'))?.data).to.equal(null);
    });

    it('orders ids by code point, as the memory store does, whatever the database locale', async () => {
      const store = await fresh();
      const memory = new MemoryStore({ clock: new ManualClock('2026-03-01T10:00:00.000Z') });
      const ids = ['B', 'a', '_x', 'Z9', 'é', 'b-1', 'A'];
      const orders = await Promise.all(
        [store, memory].map(async (each) => {
          const set = each.records<{ n: number }>(`collation_${Date.now()}`);
          for (const id of ids) await set.put({ id, data: { n: 1 }, refs: { owner: 'o' } });
          const plain = (await set.list()).items.map((r) => r.id);
          const byRef = (await set.list({ refs: { owner: 'o' } })).items.map((r) => r.id);
          return { plain, byRef };
        }),
      );
      expect(orders[0]).to.deep.equal(orders[1]);
    });

    it('rejects with Unavailable once closed', async () => {
      const store = await fresh();
      await store.close();
      try {
        await store.records('x').get('y');
        expect.fail('expected Unavailable');
      } catch (error) {
        expect(error).to.be.instanceOf(DomainError);
        expect((error as DomainError).code).to.equal('unavailable');
      }
    });
  });
}
