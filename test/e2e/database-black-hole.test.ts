import { expect } from 'chai';
import { porterBehindBlackHole } from '../support/porter-behind-black-hole.js';
import { until } from '../support/eventually.js';
import { recordUnhandledErrors } from '../support/unhandled-errors.js';

const TIMEOUTS = { statementMs: 1_000, acquireMs: 1_000 };
/** What a request may take past the timeout it hit: the HTTP round trip and a loaded machine's slack. */
const SLACK_MS = 1_000;

interface Timed {
  readonly status: number | 'no answer';
  readonly code: string | undefined;
  readonly ms: number;
}

/** The answer and how long it took; 'no answer' when none came within `limitMs` (the request is left hanging). */
async function timed(answer: Promise<{ status: number; body: { error?: { code: string } } }>, limitMs: number): Promise<Timed> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), limitMs)));
  const settled = await Promise.race([answer, late]);
  clearTimeout(timer);
  if (settled === null) return { status: 'no answer', code: undefined, ms: Date.now() - started };
  return { status: settled.status, code: settled.body?.error?.code, ms: Date.now() - started };
}

describe('A PostgreSQL that stops answering (suspended, or a network black hole) answers 503 within the timeouts, and serves again by itself', function () {
  this.timeout(60_000);
  let unhandled: ReturnType<typeof recordUnhandledErrors> | undefined;
  // Registered before the host's hooks, so recording stops before the host closes, as it always did.
  after(() => unhandled?.stop());
  const behind = porterBehindBlackHole({ development: true, logger: 'silent', databaseTimeouts: TIMEOUTS, automations: false });
  before(() => {
    unhandled = recordUnhandledErrors();
  });

  afterEach(() => behind().proxy?.restore());

  it('requests on pooled connections and requests needing new ones each answer 503 unavailable within the timeout', async () => {
    const { proxy, ada } = behind();
    await ada.newThread();
    // Connections the pool keeps open: requests made at once leave several behind.
    await Promise.all(Array.from({ length: 4 }, () => ada.json('GET', '/threads')));
    const pooled = proxy.open;
    expect(pooled).to.be.at.least(2);
    proxy.swallow();
    // More requests than the pool holds (10): some run on the open connections, the rest need new ones.
    const limit = Math.max(TIMEOUTS.statementMs, TIMEOUTS.acquireMs) + SLACK_MS;
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) => timed(ada.json(i % 2 ? 'GET' : 'POST', '/threads', i % 2 ? undefined : {}), limit + 4_000)),
    );
    for (const answer of answers) {
      expect(answer).to.deep.include({ status: 503, code: 'unavailable' });
      expect(answer.ms).to.be.below(limit);
    }
    // The pool has thrown away what it could not use: the next request needs a new connection, and gives up as fast.
    const fresh = await timed(ada.json('GET', '/threads'), limit + 4_000);
    expect(fresh).to.deep.include({ status: 503, code: 'unavailable' });
    expect(fresh.ms).to.be.below(TIMEOUTS.acquireMs + SLACK_MS);
    expect(unhandled!.seen).to.deep.equal([]);
  });

  it('once the database answers again, requests succeed without a restart, and nothing was left unhandled', async () => {
    const { proxy, ada } = behind();
    // The test before left connections the pool finds dead only as it uses them: it serves again first.
    await until(
      () => ada.json('POST', '/threads', {}),
      (answer) => answer.status === 201,
      { what: 'the host to serve again after the test before' },
    );
    proxy.swallow();
    const stuck = await timed(ada.json('GET', '/threads'), 10_000);
    expect(stuck).to.deep.include({ status: 503, code: 'unavailable' });
    proxy.restore();
    const listed = await until(
      () => ada.json('GET', '/threads'),
      (answer) => answer.status === 200,
      { what: 'GET /threads to answer 200 again' },
    );
    expect(listed.status).to.equal(200);
    expect((await ada.json('POST', '/threads', {})).status).to.equal(201);
    expect(unhandled!.seen).to.deep.equal([]);
  });
});
