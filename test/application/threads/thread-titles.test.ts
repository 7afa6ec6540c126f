import { expect } from 'chai';
import { RecordingLanguageModel, lastUserText } from '../../support/recording-model.js';
import { turnHarness } from '../../support/turn-harness.js';
import { ada } from '../../support/guard-harness.js';
import { TITLE_INSTRUCTIONS, plainTitle } from '../../../domain/threads/thread-title.js';

const echo = () => new RecordingLanguageModel((prompt) => ({ text: `echo: ${lastUserText(prompt)}` }));
/** The thread's title once no title is being generated for it (the title follows the first turn). */
const titleOf = async (h: ReturnType<typeof turnHarness>, threadId: string) => {
  await h.titled(threadId);
  return (await h.getThread.execute({ principal: ada, threadId })).title;
};

/** A title model that says nothing until the test lets it: a slow one. */
class SlowTitles extends RecordingLanguageModel {
  private said: () => void = () => undefined;
  /** Resolves once the title model was asked. */
  readonly asked = new Promise<void>((resolve) => (this.said = resolve));
  private let: () => void = () => undefined;
  private readonly allowed = new Promise<void>((resolve) => (this.let = resolve));

  release(): void {
    this.let();
  }

  override async doStream(options: Parameters<RecordingLanguageModel['doStream']>[0]) {
    this.said();
    await this.allowed;
    return super.doStream(options);
  }
}

describe('Thread titles', () => {
  it('names a thread after its first answer with one short call to the title model, made plain', async () => {
    const titles = new RecordingLanguageModel(() => ({ text: '"**Spring** release `plan`."' }));
    const h = turnHarness({ model: echo(), titleModel: titles });
    const { id } = await h.createThread.execute({ principal: ada });
    await h.say(id, 'What goes in the spring release?');
    expect(await titleOf(h, id)).to.equal('Spring release plan');
    expect(titles.calls).to.have.length(1);
    const [call] = titles.calls;
    expect(call!.maxOutputTokens).to.be.at.most(32);
    expect(call!.tools ?? []).to.deep.equal([]);
    expect(call!.prompt[0]).to.deep.include({ role: 'system', content: TITLE_INSTRUCTIONS });
    expect(lastUserText(call!.prompt)).to.contain('What goes in the spring release?').and.to.contain('echo: What goes');
    // Later turns keep it and never ask again.
    await h.say(id, 'and the autumn one?');
    expect(await titleOf(h, id)).to.equal('Spring release plan');
    expect(titles.calls).to.have.length(1);
  });

  it('bounds the title prompt however long the first message is', async () => {
    const titles = new RecordingLanguageModel(() => ({ text: 'Long notes' }));
    const h = turnHarness({ model: echo(), titleModel: titles });
    const { id } = await h.createThread.execute({ principal: ada });
    await h.say(id, 'word '.repeat(3_000));
    await h.titled(id);
    expect(lastUserText(titles.prompts[0]!).length).to.be.below(2_100);
    expect(await titleOf(h, id)).to.equal('Long notes');
  });

  it('strips slash-commands and Markdown from the first message, cut on a word boundary', async () => {
    const h = turnHarness({ model: echo() });
    const { id } = await h.createThread.execute({ principal: ada });
    await h.say(id, '/slow 24 # Release plan for the [spring](https://x.test) launch with **every** team, `all` hands and more words here');
    const title = await titleOf(h, id);
    expect(title).to.equal('Release plan for the spring launch with every team, all…');
    expect(title.length).to.be.at.most(60);
    expect(plainTitle('- [x] *done* ~~old~~ > quoted')).to.equal('done old > quoted');
  });

  it('keeps the title the person gave: a rename wins over the generated one', async () => {
    const titles = new RecordingLanguageModel(() => ({ text: 'Generated name' }));
    const h = turnHarness({ model: echo(), titleModel: titles });
    const { id } = await h.createThread.execute({ principal: ada });
    await h.renameThread.execute({ principal: ada, threadId: id, title: 'My own name' });
    await h.say(id, 'hello there');
    expect(await titleOf(h, id)).to.equal('My own name');
  });

  it('keeps the first message’s title, quietly, when the title model fails or answers nothing', async () => {
    for (const reply of [{ text: 'Half a tit', failAfter: true as const }, { text: '  ' }]) {
      const titles = new RecordingLanguageModel(() => reply);
      const h = turnHarness({ model: echo(), titleModel: titles });
      const { id } = await h.createThread.execute({ principal: ada });
      const chunks = await h.say(id, '**Plant** the roses');
      expect(chunks.some((chunk) => chunk.type === 'error')).to.equal(false);
      expect(await titleOf(h, id)).to.equal('Plant the roses');
    }
  });

  it('counts the title call’s tokens in the person’s token budget', async () => {
    const titles = new RecordingLanguageModel(() => ({ text: 'Four words of title' }));
    const limits = { tokens: { max: 1_000, windowSeconds: 3600 } };
    const without = turnHarness({ model: echo(), limits });
    const a = await without.createThread.execute({ principal: ada });
    await without.say(a.id, 'hello there');
    const h = turnHarness({ model: echo(), limits, titleModel: titles });
    const b = await h.createThread.execute({ principal: ada });
    await h.say(b.id, 'hello there');
    await h.titled(b.id);
    const spent = async (harness: typeof h) => (await harness.meter!.figures(ada.subject)).tokens!.used;
    expect((await spent(h)) - (await spent(without))).to.equal(4);
  });

  it('closes the first turn’s stream and frees the thread while a slow title model is still working', async () => {
    const titles = new SlowTitles(() => ({ text: 'Rose planting' }));
    const h = turnHarness({ model: echo(), titleModel: titles });
    const { id } = await h.createThread.execute({ principal: ada });
    const chunks = await h.say(id, '**Plant** the roses');
    // The stream ended with its finish, and nobody has had a title yet.
    expect(chunks.at(-1)).to.deep.include({ type: 'finish' });
    await titles.asked;
    expect((await h.getThread.execute({ principal: ada, threadId: id })).title).to.equal('Plant the roses');
    // The thread is free: the next message is answered at once (no 409 while the title is made).
    const next = await h.say(id, 'and the tulips?');
    expect(next.some((chunk) => chunk.type === 'error')).to.equal(false);
    titles.release();
    expect(await titleOf(h, id)).to.equal('Rose planting');
  });
});
