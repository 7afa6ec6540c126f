import { expect } from 'chai';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { LimitReached } from '../../../domain/errors.js';
import { anonymousPrincipal } from '../../../domain/principal.js';
import { ada, bob, countingTool } from '../../support/guard-harness.js';
import { collect, turnHarness } from '../../support/turn-harness.js';
import { RecordingLanguageModel } from '../../support/recording-model.js';
import { eventually } from '../../support/eventually.js';

/** Asks for the `wait` tool first, then answers once its result is in. */
const waitThenAnswer = (prompt: LanguageModelV4Prompt) =>
  prompt.some((message) => message.role === 'tool') ? { text: 'done waiting' } : { toolCalls: [{ toolName: 'wait', input: {} }] };

/** A read tool whose calls hold until `open()`: turns stay in flight while they wait on it. */
function heldTool() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { ...countingTool('wait', 'read', { gate }), open };
}

const refusalOf = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: unknown) => error as LimitReached,
  );

describe("A subject's turns in flight are bounded (maxTurnsInFlight)", () => {
  it('a turn past the bound is refused with 429 and Retry-After before the model is asked; its thread stays free; a place frees when a turn ends', async () => {
    const held = heldTool();
    const model = new RecordingLanguageModel(waitThenAnswer);
    const h = turnHarness({ model, tools: [held.tool], maxTurnsInFlight: 2 });
    const threads = await Promise.all([1, 2, 3].map(() => h.createThread.execute({ principal: ada })));
    const running = [await h.start(threads[0]!.id, 'one'), await h.start(threads[1]!.id, 'two')];
    expect(await eventually(() => held.calls.length === 2, 2_000), 'both turns are in flight').to.equal(true);

    const refused = await refusalOf(h.start(threads[2]!.id, 'three'));
    expect(refused).to.be.instanceOf(LimitReached);
    expect(refused!.code).to.equal('rate-limited');
    expect(refused!.details).to.deep.include({ budget: 'turnsInFlight' });
    expect(refused!.retryAfterSeconds).to.be.within(1, 15);
    expect(refused!.message).to.match(/At most 2 of your turns run at once/);
    expect(model.prompts, 'the model was not asked for the refused turn').to.have.length(2);
    // Another subject has places of their own.
    const bobs = await h.createThread.execute({ principal: bob });
    const bobsTurn = await h.start(bobs.id, 'mine', bob);

    held.open();
    for (const stream of [...running, bobsTurn]) expect((await collect(stream)).at(-1)).to.deep.include({ type: 'finish' });
    // The refused turn left its thread free, and the places freed with the turns that ended.
    const third = await collect(await h.start(threads[2]!.id, 'three again'));
    expect(third.at(-1)).to.deep.include({ type: 'finish', finishReason: 'stop' });
  });

  it('anonymous sessions of one address share the bound when they share budgets: a new cookie gets no fresh places', async () => {
    const held = heldTool();
    const model = new RecordingLanguageModel(waitThenAnswer);
    const shared = { turns: { max: 100, windowSeconds: 3600 } };
    const h = turnHarness({ model, tools: [held.tool], maxTurnsInFlight: 2, limits: shared, perAddress: shared });
    const sessions = ['s1', 's2', 's3'].map((id) => anonymousPrincipal(id, '203.0.113.7'));
    const threads = await Promise.all(sessions.map((principal) => h.createThread.execute({ principal })));
    const running = [await h.start(threads[0]!.id, 'one', sessions[0]), await h.start(threads[1]!.id, 'two', sessions[1])];
    expect(await eventually(() => held.calls.length === 2, 2_000)).to.equal(true);
    const refused = await refusalOf(h.start(threads[2]!.id, 'three', sessions[2]));
    expect(refused!.details).to.deep.include({ budget: 'turnsInFlight', sharedBy: 'address' });
    expect(model.prompts).to.have.length(2);
    held.open();
    for (const stream of running) await collect(stream);
  });

  it('turns racing for one thread: only the one that takes it holds a place among the subject’s turns in flight', async () => {
    const held = heldTool();
    const model = new RecordingLanguageModel(waitThenAnswer);
    const h = turnHarness({ model, tools: [held.tool], maxTurnsInFlight: 2 });
    const [contested, other, third] = await Promise.all([1, 2, 3].map(() => h.createThread.execute({ principal: ada })));
    const racing = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => h.start(contested!.id, `racer ${i}`)));
    const won = racing.filter((r) => r.status === 'fulfilled');
    expect(won, 'exactly one takes the thread').to.have.length(1);
    for (const lost of racing.filter((r) => r.status === 'rejected'))
      expect((lost as PromiseRejectedResult).reason).to.deep.include({ code: 'conflict' });
    // One place held, the winner's: one more turn fits, and no more.
    const second = await h.start(other!.id, 'second');
    expect(await eventually(() => held.calls.length === 2, 2_000), 'both turns are in flight').to.equal(true);
    expect(await refusalOf(h.start(third!.id, 'third'))).to.be.instanceOf(LimitReached);
    held.open();
    for (const stream of [(won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof h.start>>>).value, second]) await collect(stream);
  });
});
