import { expect } from 'chai';
import { sharedDevHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import { OpenApiCheck } from '../support/openapi-check.js';
import { answerProblems, operationsOf, RequestDrawer, send, type DrawnRequest, type Operation } from '../support/openapi-property-run.js';
import { SeededRandom } from '../support/seeded-random.js';
import type { WireClient } from '../support/turn-client.js';
import { toolPart } from '../support/turn-client.js';

type Json = Record<string, any>;

/**
 * The document against the running development host (SQLite), as Schemathesis runs one: requests
 * drawn from each operation's own schemas. One the document allows never gets a 500, an
 * undeclared status or an answer (JSON, or each event of a turn's stream) outside its declared
 * schema, and is never refused as `validation` unless the operation's description names the rule
 * JSON Schema cannot say. One the document refuses gets a 4xx in the declared shape. The seed is
 * printed with every finding; `PORTER_PROPERTY_SEED` replays it.
 */

/** Time for the whole run: the draws past each operation's first ones stop there. */
const RUN_MS = 25_000;
const VALID_DRAWS = 6;
const INVALID_DRAWS = 4;
/** Draws every operation gets however busy the machine is, so the run's size never depends on its pace. */
const FIRST_VALID_DRAWS = 3;
const FIRST_INVALID_DRAWS = 2;
const PER_REQUEST_MS = 10_000;

/** Operations whose request body has no schema to draw from (bytes), tested on their own elsewhere. */
const UNDRAWN = new Set([
  'importApp', // an app file (a zip): test/e2e/apps.test.ts and the hostile sweep
  'receiveWebhook', // signed bytes: test/e2e/automations.test.ts
  'uploadFile', // a file's bytes: test/e2e/uploads.test.ts
]);

/** Operations whose real ids would start something heavy (a sandboxed server): they draw ids only. */
const NO_KNOWN_IDS = new Set(['graduateApp']);

/**
 * Refusals (`validation`, and the door's OAuth 400s) of requests the document allows, each for a
 * rule JSON Schema cannot say: it depends on state (a page's cursor, a registered client, a
 * consent handle, the tools and webhook sources this deployment has, a broker's toolkits) or on
 * where a value sits (the last message of a chat body). The operation's document says each in
 * words; the second test checks that it does.
 */
const DESCRIBED_REFUSALS: ReadonlyArray<{ readonly operations: RegExp; readonly message: RegExp; readonly described: RegExp }> = [
  { operations: /^list/, message: /The cursor is not one this list produced/, described: /cursor this list did not produce is 400/ },
  {
    operations: /^initiateConnection$/,
    message: /The connection broker \(\w+\) refused/,
    described: /broker does not know is refused by it/,
  },
  {
    operations: /^(create|change)Automation$/,
    message:
      /is not valid: (trigger\.cron|trigger\.timezone|trigger\.source|task\.tools\.\d+|notify\.url: Porter will not send webhooks to)/,
    described: /never fires, is 400.*unknown one is 400.*registered.*another is 400.*no tool has is 400.*egress guard refuses/,
  },
  { operations: /^runTurn$/, message: /The last message must/, described: /the last message must be the user's/ },
  {
    operations: /^runTurn$/,
    message: /A message may carry at most \d+ files/,
    described: /at most `uploads.maxFilesPerMessage` of them \(more is 400/,
  },
  {
    operations: /^authorize$/,
    message: /not registered with this door|redirect_uri/,
    described: /registered with this door.*another is 400/,
  },
  { operations: /^answerConsent$/, message: /expired or was already answered|incomplete/, described: /single-use/ },
  {
    operations: /^issueTokens$/,
    message: /client_id is required|not registered with this door|invalid_grant|invalid_request/,
    described: /Required unless the client authenticates with HTTP Basic/,
  },
  {
    operations: /^revokeToken$/,
    message: /client_id is required|not registered with this door|invalid_client/,
    described: /required unless it authenticates with HTTP Basic; one not registered with this door/,
  },
];

const refusalFor = (operation: Operation, message: string) =>
  DESCRIBED_REFUSALS.find((refusal) => refusal.operations.test(operation.id) && refusal.message.test(message));

describe('The OpenAPI document against the running development host (a property run)', function () {
  this.timeout(120_000);
  let host: DevHostFixture;
  let ada: WireClient;
  let document: Json;
  let check: OpenApiCheck;
  const known: string[] = ['items', 'note.txt', 'demo'];
  sharedDevHost(
    (started) => ({ host, ada } = started),
    () => ({ demoBroker: true }),
  );

  before(async () => {
    const response = await fetch(`${host.url}${host.porter.mount}/openapi.json`);
    document = (await response.json()) as Json;
    check = new OpenApiCheck(document);
    known.push(...(await fixtures(ada)));
  });

  it('answers what the document allows in the shapes it declares, and refuses what it refuses with a declared 4xx', async () => {
    const seed = Number(process.env.PORTER_PROPERTY_SEED) || Math.floor(Math.random() * 2 ** 31);
    const random = new SeededRandom(seed);
    const drawer = new RequestDrawer(document, random, known, { 'x-demo-user': 'ada' });
    const base = host.url;
    const operations = operationsOf(document)
      .filter((operation) => !UNDRAWN.has(operation.id))
      // What deletes runs last, so the known ids name something for the others.
      .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    const findings: string[] = [];
    const counts = { valid: 0, invalid: 0, operations: 0 };
    const deadline = Date.now() + RUN_MS;

    const run = async (operation: Operation, request: DrawnRequest | null) => {
      if (!request) return;
      counts[request.intent] += 1;
      let problems: string[];
      try {
        const answer = await send(base, request, PER_REQUEST_MS);
        problems = answerProblems(check, document, request, answer);
        if (request.intent === 'valid' && answer.status === 400) {
          if (!refusalFor(operation, answer.text)) problems.push(`a request the document allows was refused: ${answer.text.slice(0, 300)}`);
        }
        if (request.intent === 'invalid' && (answer.status < 400 || answer.status >= 500))
          problems.push(`a request the document refuses (${request.broken}) was answered ${answer.status}: ${answer.text.slice(0, 200)}`);
      } catch (error) {
        problems = [`no answer: ${(error as Error).message}`];
      }
      for (const problem of problems)
        findings.push(
          `${operation.method} ${operation.path} (${operation.id}, ${request.intent}) ${request.url} ${JSON.stringify(request.shown.body)?.slice(0, 300)}: ${problem}`,
        );
    };

    for (const operation of operations) {
      counts.operations += 1;
      for (let i = 0; i < VALID_DRAWS && (i < FIRST_VALID_DRAWS || Date.now() < deadline); i += 1)
        await run(operation, drawer.valid(operation, { knownIds: !NO_KNOWN_IDS.has(operation.id) }));
      for (let i = 0; i < INVALID_DRAWS && (i < FIRST_INVALID_DRAWS || Date.now() < deadline); i += 1)
        await run(operation, drawer.invalid(operation));
    }
    expect(
      findings.length,
      `seed ${seed} (PORTER_PROPERTY_SEED=${seed} replays it); ${JSON.stringify(counts)}:\n${findings.join('\n')}`,
    ).to.equal(0);
    expect(counts.operations, 'every operation of the document was drawn from').to.be.greaterThan(80);
    expect(counts.valid).to.be.greaterThan(counts.operations * 2);
    expect(counts.invalid).to.be.greaterThan(counts.operations);
  });

  it("describes in words each rule of an operation's input that its schema cannot say", () => {
    for (const { operations, described } of DESCRIBED_REFUSALS) {
      const matching = operationsOf(document).filter(
        (o) => operations.test(o.id) && (!operations.source.startsWith('^list') || hasCursor(o)),
      );
      expect(matching, String(operations)).to.not.deep.equal([]);
      for (const operation of matching) expect(operationText(document, operation), operation.id).to.match(described);
    }
  });
});

function hasCursor(operation: Operation): boolean {
  return (operation.op.parameters ?? []).some((p: Json) => p.name === 'cursor');
}

/** An operation as text, with the request body schemas it references. */
function operationText(document: Json, operation: Operation): string {
  const refs = [...JSON.stringify(operation.op.requestBody ?? {}).matchAll(/#\/components\/schemas\/(\w+)/g)].map((m) => m[1]!);
  return JSON.stringify([operation.op, ...refs.map((name) => document.components.schemas[name])]);
}

/** Real ids for the draws to name: threads, an approval (and its call), a grant, an app, an automation, a run, a connection. */
async function fixtures(ada: WireClient): Promise<string[]> {
  const ids: string[] = [];
  const thread = await ada.newThread();
  const parked = await ada.say(thread, '/call notes_clear {}');
  const part = toolPart(parked.message, 'notes_clear')!;
  ids.push(thread, part.approval.id as string, part.toolCallId as string);
  const other = await ada.newThread();
  const remembered = await ada.say(other, '/call notes_add {"text":"milk"}');
  const approval = toolPart(remembered.message, 'notes_add')!.approval.id as string;
  await ada.json('POST', `/approvals/${approval}/decide`, { approve: true, remember: { scope: 'tool', duration: 'standing' } });
  const grants = await ada.json('GET', '/grants');
  ids.push(other, ...grants.body.grants.map((grant: Json) => grant.id as string));
  const app = await ada.json('POST', '/apps', { prompt: 'a packing list' });
  ids.push(app.body.id);
  await ada.json('PUT', `/apps/${app.body.id}/records/items`, { data: { name: 'socks' } });
  await ada.json('PUT', `/apps/${app.body.id}/blobs/note.txt`, { contentType: 'text/plain', data: 'aGk=' });
  const automation = await ada.json('POST', '/automations', {
    name: 'Daily',
    trigger: { kind: 'schedule', cron: '0 9 * * *' },
    task: { prompt: 'list my notes', tools: ['notes_list'] },
  });
  ids.push(automation.body.id);
  const run = await ada.json('POST', `/automations/${automation.body.id}/dry-run`, {});
  ids.push(run.body.id);
  const connection = await ada.json('POST', '/connections/initiate', { toolkit: 'demo-calendar', callbackUrl: 'http://127.0.0.1:9/done' });
  ids.push(connection.body.id);
  for (const id of ids) expect(id, `every fixture was made: ${JSON.stringify([run.body, connection.body])}`).to.be.a('string');
  return ids;
}
