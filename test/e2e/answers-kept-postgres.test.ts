import { expect } from 'chai';
import { ScriptedLanguageModel } from '../../adapters/model/scripted-language-model.js';
import { demoPrincipal } from '../../composition/dev-host/demo-principal.js';
import { porterBehindBlackHole } from '../support/porter-behind-black-hole.js';
import { readTurn, readUntil, textOf } from '../support/turn-client.js';
import { numberedWords } from '../support/numbered-words.js';
import { RecordingLogger } from '../support/fakes.js';
import { until } from '../support/eventually.js';

describe('An answer shown is an answer kept (PostgreSQL stopped while the turn ends)', function () {
  this.timeout(60_000);
  const log = new RecordingLogger();
  const behind = porterBehindBlackHole({
    development: true,
    logger: log,
    databaseTimeouts: { statementMs: 1_000, acquireMs: 1_000 },
    automations: false,
    model: new ScriptedLanguageModel(),
    principal: demoPrincipal,
  });

  it('streams the whole answer, saves it once the database is back, and only then says finish', async () => {
    const { proxy, ada } = behind();
    const thread = await ada.newThread();
    const text = numberedWords('w', 12);
    const turn = await ada.send('POST', `/threads/${thread}/turn`, {
      message: { role: 'user', parts: [{ type: 'text', text: `/slow 1.5 ${text}` }] },
    });
    expect(turn.status).to.equal(200);
    const [early, late, read] = [turn.clone(), turn.clone(), turn];
    await readUntil(early, 'w2 ');
    proxy.refuse();
    const ended = readTurn(read);
    await readUntil(late, 'w11');
    // The whole answer shown, its save refused by a database that is down; then the database returns.
    await until(
      () => log.entries.some((entry) => entry.message === 'the store did not take an answer; it is tried again'),
      (tried) => tried,
      { what: 'the final save to be refused' },
    );
    proxy.restore();
    const streamed = await ended;
    expect(textOf(streamed.message)).to.equal(text);
    expect(streamed.chunks.map((chunk) => chunk.type)).to.not.include('error');
    expect(streamed.chunks.at(-1)).to.deep.include({ type: 'finish', finishReason: 'stop' });
    const stored = (await ada.json('GET', `/threads/${thread}`)).body.messages;
    expect(stored.map((message: { role: string }) => message.role)).to.deep.equal(['user', 'assistant']);
    expect(textOf(stored[1])).to.equal(text);
  });
});
