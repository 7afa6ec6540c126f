import { expect } from 'chai';
import pg from 'pg';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';
import { createPorter, type Porter } from '../../composition/create-porter.js';
import { eventually } from '../support/eventually.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../support/postgres.js';

const json = { 'content-type': 'application/json' };

/** What the driver was asked, with the first parameter (a record's collection, a feed's namespace). */
interface Statement {
  readonly sql: string;
  readonly values: ReadonlyArray<unknown>;
}

/**
 * The instance's own pollers (the run sweeper, the scheduler's leader check, the statistics
 * keeper) may tick while a turn runs: they are not the turn's.
 */
const background = (statement: Statement) =>
  statement.sql.includes('pg_locks') || statement.sql.includes('porter.statistics') || statement.values[0] === 'runs';

describe('Statements a turn sends to PostgreSQL', function () {
  this.timeout(60_000);
  let database: TestDatabase | null = null;
  let porter: Porter | null = null;
  let counted: Statement[] | null = null;
  const query = pg.Client.prototype.query;

  before(async function () {
    const server = await postgresServerUrl();
    if (!server) return this.skip();
    database = await createTestDatabase(server);
    porter = await createPorter(
      {
        model: new ScriptedLanguageModel(),
        // A thread's generated title is a model call and a write of its own, once per thread: not a turn's.
        titleModel: false,
        principal: () => ({ subject: 'counted', kind: 'user' }),
        databaseUrl: database.url,
        secret: 'c'.repeat(40),
        scheduler: 'external',
        logger: 'error',
      },
      {},
    );
    // Every statement any client of the driver sends while `counted` is set is kept.
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string; values?: unknown[] };
      const sql = typeof first === 'string' ? first : String(first.text);
      const values = (Array.isArray(args[1]) ? args[1] : typeof first === 'string' ? [] : (first.values ?? [])) as unknown[];
      counted?.push({ sql, values });
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
  });
  after(async () => {
    pg.Client.prototype.query = query;
    await porter?.close();
    await database?.drop();
  });

  const post = (path: string, body: unknown) =>
    porter!.fetch(new Request(`http://porter.test${porter!.mount}${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) }));

  /** A new thread and one turn on it, read to its end and released; the statements of each. */
  async function threadAndTurn(text: string): Promise<{ create: Statement[]; turn: Statement[] }> {
    const create: Statement[] = [];
    counted = create;
    const { id } = (await (await post('/threads', {})).json()) as { id: string };
    const turn: Statement[] = [];
    counted = turn;
    // With the client's id for the message, as the AI SDK's clients send it.
    const message = { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] };
    const answer = await (await post(`/threads/${id}/turn`, { message })).text();
    expect(answer).to.include('[DONE]');
    // The turn is over once it released its thread and signalled whoever waits for it.
    const signalled = (statement: Statement) => statement.sql.includes('pg_notify') && statement.values[1] === id;
    expect(await eventually(() => turn.some(signalled), 10_000), 'the turn released its thread').to.equal(true);
    counted = null;
    return { create: create.filter((s) => !background(s)), turn: turn.filter((s) => !background(s)) };
  }

  it('a new thread costs one statement and a turn on it 6 round trips (was 2 and 28 statements), everything still stored and found', async () => {
    // The first turn reads what an instance reads once (and may create what it creates lazily).
    await threadAndTurn('warming up');
    const { create, turn } = await threadAndTurn(Array.from({ length: 50 }, (_, i) => `word${i}`).join(' '));
    const listing = (statements: Statement[]) =>
      statements.map((s) => `${s.sql.replace(/\s+/g, ' ').slice(0, 70)} ${String(s.values[0])}`).join('\n');
    expect(create.length, listing(create)).to.be.at.most(1);
    // The statements sent together (Store.together) go between one `begin` and its `commit`, in one
    // write: a round trip and a transaction for the lot. The turn's chunks go to its feed in one
    // append, with the turn's end; on a busy machine their window may lapse first, and they go in
    // one or two appends of their own.
    const groups = turn.filter((s) => s.sql === 'begin');
    const appendsAlone: Statement[] = [];
    let inGroup = false;
    let roundTrips = 0;
    for (const statement of turn) {
      if (statement.sql === 'begin') inGroup = true;
      if (!inGroup && statement.values[0] === 'turn-chunks') appendsAlone.push(statement);
      else if (!inGroup) roundTrips += 1;
      if (statement.sql === 'commit') {
        inGroup = false;
        roundTrips += 1;
      }
    }
    // 6 (13 before, 7 with the client's message id): the thread read; the thread taken with its
    // messages, the message stored under the client's id and the memories read; the place among
    // the subject's turns in flight; the person's message with its words; the answer with its
    // words; and the place let go, the last chunks, the thread released and whoever waits told.
    expect(roundTrips, listing(turn)).to.be.at.most(6);
    expect(appendsAlone.length, listing(turn)).to.be.at.most(2);
    expect(groups.length, listing(turn)).to.be.at.least(4);

    // Nothing given up for it: the title, the person's message and the answer are all searchable.
    const search = async (q: string) =>
      (await (await porter!.fetch(new Request(`http://porter.test${porter!.mount}/threads?q=${q}`))).json()) as unknown;
    expect(JSON.stringify(await search('word49'))).to.include('word49');
    expect(JSON.stringify(await search('echo'))).to.include('echo');
  });

  it('a slow answer read only where it runs goes to its feed in one append with its end (was one a word)', async () => {
    await threadAndTurn('warming up');
    const words = Array.from({ length: 20 }, (_, i) => `slow${i}`).join(' ');
    const { turn } = await threadAndTurn(`/slow 1 ${words}`);
    const appends = turn.filter((statement) => statement.values[0] === 'turn-chunks' && statement.sql.includes('porter_feed_entries'));
    expect(appends.length, 'appends of its chunks').to.equal(1);
  });
});
