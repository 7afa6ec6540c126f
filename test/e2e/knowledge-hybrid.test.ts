import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import type { PorterOptions } from '../../composition/config/porter-options.js';
import { containerOf } from '../../composition/porter-container.js';
import { get, TOKENS } from '../../composition/tokens.js';
import type { Principal } from '../../domain/principal.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { SystemClock } from '../../adapters/runtime/system-clock.js';
import { RecordingLogger } from '../support/fakes.js';
import { HASHED_DIMENSIONS, HashedEmbeddingModel, hashedVector } from '../support/hashed-embedding-model.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../support/postgres.js';

const ada: Principal = { subject: 'ada', kind: 'user' };
const bob: Principal = { subject: 'bob', kind: 'user' };

const FILLER = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} talks about ordinary office matters, meetings and coffee.`).join(
  '\n\n',
);
/** Says "reimbursed", never "refund": full-text search for "refund" cannot find it. */
const HANDBOOK = `${FILLER}\n\nA trip cancelled two weeks ahead is reimbursed in full by the travel desk.\n\n${FILLER}`;
const CAR_NOTE = 'The automobile lease of the zephyr team ends in March; the keys go back to the garage.';

function porterOn(databaseUrl: string, logger: RecordingLogger, more: Partial<PorterOptions> = {}): Promise<Porter> {
  return createPorter(
    {
      principal: () => ada,
      databaseUrl,
      secret: 's'.repeat(40),
      logger,
      ...more,
      knowledge: { ...(more.knowledge === false ? {} : more.knowledge) },
    },
    {},
  );
}

describe('Hybrid knowledge retrieval (knowledge.embeddingModel)', function () {
  this.timeout(60_000);
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'porter-hybrid-'));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  /** The same behaviour on each engine's vector index; `databaseUrl` null skips it (no such engine here). */
  const onVectorIndex = (engine: string, says: string, databaseUrl: () => Promise<string | null>) =>
    describe(`on ${engine}`, () => {
      let porter: Porter;
      let logger: RecordingLogger;
      let model: HashedEmbeddingModel;
      let url: string;
      before(async function () {
        const given = await databaseUrl();
        if (!given) return this.skip();
        url = given;
        logger = new RecordingLogger();
        model = new HashedEmbeddingModel();
        porter = await porterOn(url, logger, { knowledge: { embeddingModel: model } });
      });
      after(async () => {
        await porter?.close();
      });

      it(`says once at boot that retrieval is hybrid, with ${says}`, () => {
        const said = logger.entries.filter((entry) => entry.message.startsWith('knowledge:'));
        expect(said.map((entry) => entry.message)).to.deep.equal([`knowledge: hybrid retrieval with ${says}`]);
      });

      it('embeds the passages when a document is added, in batches', async () => {
        const before = model.calls.length;
        const doc = await porter.knowledge.add({ title: 'Travel handbook', format: 'text', content: HANDBOOK });
        const calls = model.calls.slice(before);
        expect(calls.flat()).to.have.length(doc.passages);
        expect(calls.length).to.be.at.most(Math.ceil(doc.passages / model.maxEmbeddingsPerCall));
      });

      it('finds by meaning a passage full-text search misses (a synonym), and full-text alone does not', async () => {
        const hits = await porter.knowledge.search(ada, 'refund', 3);
        expect(hits[0]?.title).to.equal('Travel handbook');
        expect(hits[0]?.text).to.contain('reimbursed in full');
        expect(hits[0]?.snippet).to.be.a('string').and.not.equal('');

        // The same database, without the embedding model: the words alone find nothing.
        const words = await porterOn(url, new RecordingLogger());
        try {
          expect(await words.knowledge.search(ada, 'refund', 3)).to.deep.equal([]);
          expect((await words.knowledge.search(ada, 'reimbursed', 3))[0]?.text).to.contain('reimbursed in full');
        } finally {
          await words.close();
        }
      });

      it('answers nothing for a query unlike every passage, in words and in meaning', async () => {
        expect(await porter.knowledge.search(ada, 'xylophone quartet', 5)).to.deep.equal([]);
      });

      it('still ranks a passage holding the very words first', async () => {
        const hits = await porter.knowledge.search(ada, 'travel desk reimbursed', 3);
        expect(hits[0]?.text).to.contain('reimbursed in full by the travel desk');
      });

      it("never answers another person's document, by words or by meaning; its owner finds it", async () => {
        const note = await porter.knowledge.add({
          title: "Ada's notes",
          format: 'text',
          content: CAR_NOTE,
          scope: { kind: 'person', subject: 'ada' },
        });
        for (const query of ['vehicle', 'automobile lease', 'cars garage', 'zephyr']) {
          const bobs = await porter.knowledge.search(bob, query, 10);
          expect(
            bobs.map((hit) => hit.documentId),
            `bob searching "${query}"`,
          ).not.to.include(note.id);
        }
        const adas = await porter.knowledge.search(ada, 'vehicle', 10);
        expect(adas[0]?.documentId).to.equal(note.id);
      });

      it("finds a person's own passage by meaning however many of another's lie nearer (past the approximate index's candidates)", async () => {
        const fleet = Array.from({ length: 7000 }, (_, i) => `Car ${i} waits by the vehicle gate.`).join('\n\n');
        const carols = await porter.knowledge.add({
          title: "Carol's fleet",
          format: 'text',
          content: fleet,
          scope: { kind: 'person', subject: 'carol' },
        });
        expect(carols.passages).to.be.greaterThan(200);
        const mine = await porter.knowledge.add({
          title: 'My ride',
          format: 'text',
          content: 'My automobile is blue and old and loud.',
          scope: { kind: 'person', subject: 'dan' },
        });
        const dans = await porter.knowledge.search({ subject: 'dan', kind: 'user' }, 'vehicles', 5);
        expect(dans.map((hit) => hit.documentId)).to.include(mine.id);
        expect(dans.map((hit) => hit.documentId)).not.to.include(carols.id);
        await porter.knowledge.remove(carols.id);
        await porter.knowledge.remove(mine.id);
      });

      it('forgets the embeddings of a removed document', async () => {
        const note = await porter.knowledge.add({ title: 'Fleet', format: 'text', content: 'Every vehicle is washed on Mondays.' });
        expect((await porter.knowledge.search(ada, 'cars', 10)).map((hit) => hit.documentId)).to.include(note.id);
        expect(await porter.knowledge.remove(note.id)).to.equal(true);
        const store = get(containerOf(porter), TOKENS.Store);
        const indexes = await store.vectors!();
        if ('reason' in indexes) throw new Error(indexes.reason);
        const index = await indexes.index('knowledge', HASHED_DIMENSIONS);
        const left = await index.search({ vector: hashedVector(['vehicle']), where: { document: note.id }, limit: 10 });
        expect(left).to.deep.equal([]);
        expect((await porter.knowledge.search(ada, 'cars', 10)).map((hit) => hit.documentId)).not.to.include(note.id);
      });
    });

  onVectorIndex('SQLite (libsql vector index)', 'libsql vector index', async () => `sqlite:${join(folder, 'hybrid.db')}`);
  let pgvectorDatabase: TestDatabase | null = null;
  after(async () => {
    await pgvectorDatabase?.drop();
  });
  onVectorIndex('PostgreSQL with pgvector (where the extension is installed)', 'pgvector', async () => {
    const server = await postgresServerUrl();
    if (!server) return null;
    pgvectorDatabase = await createTestDatabase(server);
    return (await hasPgvector(pgvectorDatabase.url)) ? pgvectorDatabase.url : null;
  });

  describe('on PostgreSQL with pgvector, several instances (where the extension is installed)', () => {
    const databases: TestDatabase[] = [];
    after(async () => {
      for (const database of databases) await database.drop();
    });

    it('instances booting together on a fresh database all retrieve with pgvector, and their first documents at once are all kept', async function () {
      const server = await postgresServerUrl();
      if (!server) return this.skip();
      const probe = await createTestDatabase(server);
      databases.push(probe);
      if (!(await hasPgvector(probe.url))) return this.skip();
      // Each round a fresh database: the extension and the vector table are made by whichever instance gets there first.
      for (let round = 0; round < 3; round++) {
        const database = round === 0 ? probe : await createTestDatabase(server);
        if (round > 0) databases.push(database);
        const loggers = [new RecordingLogger(), new RecordingLogger(), new RecordingLogger()];
        const porters = await Promise.all(
          loggers.map((logger) => porterOn(database.url, logger, { knowledge: { embeddingModel: new HashedEmbeddingModel() } })),
        );
        try {
          for (const logger of loggers)
            expect(
              logger.entries.filter((entry) => entry.message.startsWith('knowledge:')).map((entry) => entry.message),
              `round ${round}`,
            ).to.deep.equal(['knowledge: hybrid retrieval with pgvector']);
          const added = await Promise.all(
            porters.map((porter, i) =>
              porter.knowledge.add({ title: `Fleet ${i}`, format: 'text', content: `Vehicle ${i} is parked by the north gate.` }),
            ),
          );
          const found = (await porters[0]!.knowledge.search(ada, 'cars', 10)).map((hit) => hit.documentId);
          expect(found, `round ${round}`).to.include.members(added.map((document) => document.id));
        } finally {
          await Promise.all(porters.map((porter) => porter.close()));
        }
      }
    });
  });

  describe('on the memory store (an exact scan)', () => {
    it('finds by meaning too, and says so at boot', async () => {
      const logger = new RecordingLogger();
      const porter = await createPorter(
        {
          principal: () => ada,
          store: new MemoryStore({ clock: new SystemClock() }),
          secret: 's'.repeat(40),
          logger,
          knowledge: { embeddingModel: new HashedEmbeddingModel() },
        },
        {},
      );
      try {
        expect(logger.entries.map((entry) => entry.message)).to.include('knowledge: hybrid retrieval with memory');
        await porter.knowledge.add({ title: 'Travel handbook', format: 'text', content: HANDBOOK });
        await porter.knowledge.add({ title: "Ada's notes", format: 'text', content: CAR_NOTE, scope: { kind: 'person', subject: 'ada' } });
        expect((await porter.knowledge.search(ada, 'refund', 3))[0]?.text).to.contain('reimbursed in full');
        expect((await porter.knowledge.search(bob, 'vehicle', 10)).map((hit) => hit.title)).not.to.include("Ada's notes");
      } finally {
        await porter.close();
      }
    });
  });

  describe('embedding tokens count against limits.embeddingTokens', () => {
    it("a person's searches spend them; once spent, search stands on its words alone", async () => {
      const model = new HashedEmbeddingModel();
      const porter = await porterOn(`sqlite:${join(folder, 'budget.db')}`, new RecordingLogger(), {
        knowledge: { embeddingModel: model },
        limits: { embeddingTokens: { max: 2, windowSeconds: 3600 } },
      });
      try {
        await porter.knowledge.add({ title: 'Travel handbook', format: 'text', content: HANDBOOK });
        // The host's own adds are its own: nothing of ada's budget is spent.
        expect((await porter.knowledge.search(ada, 'refund', 3))[0]?.text).to.contain('reimbursed');
        expect((await porter.knowledge.search(ada, 'refunds', 3))[0]?.text).to.contain('reimbursed');
        const calls = model.calls.length;
        expect(await porter.knowledge.search(ada, 'refund', 3)).to.deep.equal([]);
        expect(model.calls.length, 'no embedding asked once the budget is spent').to.equal(calls);
        expect((await porter.knowledge.search(ada, 'reimbursed', 3))[0]?.text).to.contain('reimbursed');
        // Bob's budget is his own.
        expect((await porter.knowledge.search(bob, 'refund', 3))[0]?.text).to.contain('reimbursed');
        const usage = await porter.fetch(new Request(`http://host${porter.mount}/usage`));
        expect(((await usage.json()) as { budgets: Record<string, { used: number }> }).budgets.embeddingTokens?.used).to.equal(2);
      } finally {
        await porter.close();
      }
    });
  });

  describe('on PostgreSQL', () => {
    let database: TestDatabase | null = null;
    let pgvector = false;
    before(async function () {
      const server = await postgresServerUrl();
      if (!server) return this.skip();
      database = await createTestDatabase(server);
      pgvector = await hasPgvector(database.url);
    });
    after(async () => {
      await database?.drop();
    });

    it('says at boot whether pgvector is there; without it, full-text alone still answers (with pgvector where installed)', async () => {
      const logger = new RecordingLogger();
      const model = new HashedEmbeddingModel();
      const porter = await porterOn(database!.url, logger, { knowledge: { embeddingModel: model } });
      try {
        const said = logger.entries.filter((entry) => entry.message.startsWith('knowledge:')).map((entry) => entry.message);
        await porter.knowledge.add({ title: 'Travel handbook', format: 'text', content: HANDBOOK });
        expect((await porter.knowledge.search(ada, 'reimbursed', 3))[0]?.text).to.contain('reimbursed in full');
        if (pgvector) {
          expect(said).to.deep.equal(['knowledge: hybrid retrieval with pgvector']);
          expect((await porter.knowledge.search(ada, 'refund', 3))[0]?.text).to.contain('reimbursed in full');
        } else {
          expect(said).to.deep.equal(['knowledge: full-text only: pgvector is not installed']);
          expect(await porter.knowledge.search(ada, 'refund', 3)).to.deep.equal([]);
          expect(model.calls, 'the embedding model is never called').to.deep.equal([]);
        }
      } finally {
        await porter.close();
      }
    });
  });
});

/** Whether the server can make pgvector's extension (Debian 12 has no package for it; a machine may build it). */
async function hasPgvector(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query("select 1 from pg_available_extensions where name = 'vector'")).rowCount === 1;
  } finally {
    await client.end();
  }
}
