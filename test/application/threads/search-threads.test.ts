import { expect } from 'chai';
import { RecordingLanguageModel, lastUserText } from '../../support/recording-model.js';
import { collect, turnHarness } from '../../support/turn-harness.js';
import { ada, bob } from '../../support/guard-harness.js';
import type { Principal } from '../../../domain/principal.js';
import type { ThreadSearchHit } from '../../../ports/use-cases/threads.js';
import type { UiMessage } from '../../../domain/threads/ui-message.js';

/** The model answers with a sentence about what the person asked. */
const answering = () =>
  new RecordingLanguageModel((prompt) => ({ text: `About ${lastUserText(prompt)}: the capybara is the largest rodent.` }));

/** The highlighted words of a hit, as the person sees them. */
const marked = (hit: ThreadSearchHit) => hit.match.highlights.map(({ start, end }) => hit.match.snippet.slice(start, end));

describe('SearchThreads (GET /threads?q=) over the text index', () => {
  it("finds a word of the assistant's answer, not only of the title, with the word highlighted in the snippet", async () => {
    const h = turnHarness({ model: answering() });
    const { id } = await h.createThread.execute({ principal: ada });
    await h.say(id, 'animals');
    const { threads } = await h.searchThreads.execute({ principal: ada, q: 'rodent' });
    expect(threads.map((thread) => thread.id)).to.deep.equal([id]);
    expect(threads[0]!.match.snippet).to.contain('largest rodent');
    expect(marked(threads[0]!)).to.deep.equal(['rodent']);
    expect(threads[0]!.match.messageId).to.be.a('string');
  });

  it("finds the person's own words, by the start of a word, case and accents ignored", async () => {
    const h = turnHarness({ model: answering() });
    const { id } = await h.createThread.execute({ principal: ada });
    await h.say(id, 'Plans for the Café Zürich offsite');
    for (const q of ['zurich', 'CAFÉ', 'offs plans']) {
      expect(
        (await h.searchThreads.execute({ principal: ada, q })).threads.map((thread) => thread.id),
        q,
      ).to.deep.equal([id]);
    }
    expect((await h.searchThreads.execute({ principal: ada, q: 'offsite holiday' })).threads).to.deep.equal([]);
  });

  it("never finds another person's words", async () => {
    const h = turnHarness({ model: answering() });
    const mine = await h.createThread.execute({ principal: bob });
    await collect(await h.start(mine.id, 'secret merger with Globex', bob));
    const adas = await h.createThread.execute({ principal: ada });
    await h.say(adas.id, 'weekend hiking');
    expect((await h.searchThreads.execute({ principal: ada, q: 'globex' })).threads).to.deep.equal([]);
    expect((await h.searchThreads.execute({ principal: ada, q: 'capybara' })).threads.map((thread) => thread.id)).to.deep.equal([adas.id]);
  });

  it('no longer finds a deleted thread', async () => {
    const h = turnHarness({ model: answering() });
    const { id } = await h.createThread.execute({ principal: ada });
    await h.say(id, 'quarterly numbers');
    expect((await h.searchThreads.execute({ principal: ada, q: 'quarterly' })).threads).to.have.length(1);
    await h.deleteThread.execute({ principal: ada, threadId: id });
    expect((await h.searchThreads.execute({ principal: ada, q: 'quarterly' })).threads).to.deep.equal([]);
    expect(await h.store.textIndex!('threads').search({ text: 'quarterly', where: {} })).to.deep.equal([]);
  });

  it('finds a thread by its new title once renamed, and not by the old one', async () => {
    const h = turnHarness({ model: answering() });
    const { id } = await h.createThread.execute({ principal: ada });
    await h.renameThread.execute({ principal: ada, threadId: id, title: 'Budget review' });
    const [hit] = (await h.searchThreads.execute({ principal: ada, q: 'budget' })).threads;
    expect(hit).to.deep.include({ id, title: 'Budget review' });
    expect(hit!.match.messageId).to.equal(undefined);
    await h.renameThread.execute({ principal: ada, threadId: id, title: 'Travel' });
    expect((await h.searchThreads.execute({ principal: ada, q: 'budget' })).threads).to.deep.equal([]);
    expect((await h.searchThreads.execute({ principal: ada, q: 'travel' })).threads).to.have.length(1);
  });

  it('ranks the thread most about the words first, and pages through the rest', async () => {
    const h = turnHarness({ model: new RecordingLanguageModel(() => ({ text: 'ok' })) });
    const ids: string[] = [];
    for (const text of ['kiwi once', 'kiwi kiwi kiwi kiwi', 'kiwi twice kiwi', 'no fruit here']) {
      const { id } = await h.createThread.execute({ principal: ada });
      await h.say(id, text);
      ids.push(id);
    }
    const first = await h.searchThreads.execute({ principal: ada, q: 'kiwi', limit: 2 });
    expect(first.threads.map((thread) => thread.id)).to.deep.equal([ids[1], ids[2]]);
    const second = await h.searchThreads.execute({ principal: ada, q: 'kiwi', limit: 2, cursor: first.nextCursor });
    expect(second.threads.map((thread) => thread.id)).to.deep.equal([ids[0]]);
    expect(second.nextCursor).to.equal(null);
  });

  it('answers a query of bare syntax with nothing rather than an error', async () => {
    const h = turnHarness({ model: answering() });
    const { id } = await h.createThread.execute({ principal: ada });
    await h.say(id, 'NEAR the OR gate - "quoted" *star*');
    for (const q of ['"', '*', '-', '(', ')', '":*&|!', "'", '^']) {
      expect((await h.searchThreads.execute({ principal: ada, q })).threads, q).to.deep.equal([]);
    }
    expect((await h.searchThreads.execute({ principal: ada, q: 'NEAR( gate' })).threads.map((thread) => thread.id)).to.deep.equal([id]);
  });

  it('finds what a regenerated answer says, and no longer what it replaced', async () => {
    let call = 0;
    const h = turnHarness({
      model: new RecordingLanguageModel(() => ({ text: call++ === 0 ? 'first draft mentions walrus' : 'second draft mentions otter' })),
    });
    const { id } = await h.createThread.execute({ principal: ada });
    await h.say(id, 'write it');
    await collect(await h.runTurn.execute({ principal: ada, threadId: id, rewind: { kind: 'answer' } }));
    expect((await h.searchThreads.execute({ principal: ada, q: 'walrus' })).threads).to.deep.equal([]);
    expect((await h.searchThreads.execute({ principal: ada, q: 'otter' })).threads).to.have.length(1);
  });

  it('indexes threads written before messages were indexed on the first search (backfill)', async () => {
    const h = turnHarness({ model: answering() });
    const { id } = await h.createThread.execute({ principal: ada });
    const old: UiMessage = { id: 'msg_old', role: 'user', parts: [{ type: 'text', text: 'an old note about lighthouses' }] };
    // Written the way an older Porter wrote it: a message record, no passage.
    await h.store.records<UiMessage>('thread-messages').put({ id: old.id, data: old, refs: { thread: id } });
    expect(await h.store.textIndex!('threads').search({ text: 'lighthouses', where: {} })).to.deep.equal([]);
    expect((await h.searchThreads.execute({ principal: ada, q: 'lighthouses' })).threads.map((thread) => thread.id)).to.deep.equal([id]);
    expect((await h.searchThreads.execute({ principal: bob, q: 'lighthouses' })).threads).to.deep.equal([]);
  });

  it("moves an adopted anonymous session's words to the signed-in person", async () => {
    const h = turnHarness({ model: answering() });
    const anonymous: Principal = { subject: 'porter:anonymous:s1', kind: 'user' };
    const { id } = await h.createThread.execute({ principal: anonymous });
    await collect(await h.start(id, 'zeppelin timetable', anonymous));
    await h.adopter.adopt(anonymous.subject, ada.subject);
    expect((await h.searchThreads.execute({ principal: ada, q: 'zeppelin' })).threads.map((thread) => thread.id)).to.deep.equal([id]);
    expect((await h.searchThreads.execute({ principal: anonymous, q: 'zeppelin' })).threads).to.deep.equal([]);
  });

  it('finds the answer of a turn during which the session was adopted under the person it moved to', async () => {
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let asked = (): void => undefined;
    const called = new Promise<void>((resolve) => (asked = resolve));
    // The model answers only once the session was adopted: the answer is saved after the move.
    const model = new (class extends RecordingLanguageModel {
      override async doStream(options: Parameters<RecordingLanguageModel['doStream']>[0]) {
        asked();
        await gate;
        return super.doStream(options);
      }
    })((prompt) => ({ text: `About ${lastUserText(prompt)}: the capybara is the largest rodent.` }));
    const h = turnHarness({ model });
    // The first search indexes every thread again (the backfill): done before, so it cannot hide a miss.
    await h.searchThreads.execute({ principal: ada, q: 'rodent' });
    const anonymous: Principal = { subject: 'porter:anonymous:s2', kind: 'user' };
    const { id } = await h.createThread.execute({ principal: anonymous });
    const stream = await h.start(id, 'zeppelin timetable', anonymous);
    const read = collect(stream);
    await called;
    await h.adopter.adopt(anonymous.subject, ada.subject);
    open();
    await read;
    expect((await h.searchThreads.execute({ principal: ada, q: 'rodent' })).threads.map((thread) => thread.id)).to.deep.equal([id]);
    expect((await h.searchThreads.execute({ principal: anonymous, q: 'rodent' })).threads).to.deep.equal([]);
  });
});
