import { expect } from 'chai';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { sharedDevHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import { HeadlessChat } from '../support/headless-chat.js';
import { textOf, toolPart } from '../support/turn-client.js';
import { gatedTool } from '../support/gated-tool.js';
import { createPorterThread, loadPorterThread, porterChatOptions, porterChatTransport, PorterWireError } from '../../composition/client.js';
import { numberedWords } from '../support/numbered-words.js';

interface Sent {
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
}

/** A fetch that records what the transport sends, and can cut its connections the way a page unload does. */
function recordingFetch() {
  const sent: Sent[] = [];
  const answered: number[] = [];
  const waiting = new Set<() => void>();
  let unload = new AbortController();
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({
      method: init?.method ?? 'GET',
      url: String(input),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    // A page that goes away tears its connections down without the chat's own abort signal firing.
    const signals = [unload.signal, ...(init?.signal ? [init.signal] : [])];
    const response = await fetch(input, { ...init, signal: AbortSignal.any(signals) });
    answered.push(response.status);
    waiting.forEach((wake) => wake());
    return response;
  };
  return {
    sent,
    answered,
    fetch: fetchFn as typeof fetch,
    /** Resolves once `count` requests have been answered (their headers are in). */
    async whenAnswered(count: number): Promise<void> {
      while (answered.length < count) await new Promise<void>((resolve) => waiting.add(resolve));
      waiting.clear();
    },
    unload() {
      unload.abort();
      unload = new AbortController();
    },
  };
}

async function readAll(stream: ReadableStream<UIMessageChunk>): Promise<UIMessage> {
  let message: UIMessage | undefined;
  for await (const state of readUIMessageStream({ stream })) message = state;
  if (!message) throw new Error('no message');
  return message;
}

const lastAssistant = (chat: HeadlessChat) => chat.messages.filter((m) => m.role === 'assistant').at(-1);

/** Submits `text` as a new user message straight through a transport of the person's, as useChat would: the turn's UI message stream. */
function submitThroughTransport(
  person: { wire: string; headers: Record<string, string> },
  threadId: string,
  text: string,
): Promise<ReadableStream<UIMessageChunk>> {
  return porterChatTransport(person).sendMessages({
    chatId: threadId,
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }],
  });
}

describe('porter-runtime/client: the AI SDK chat transport against the development host', function () {
  this.timeout(30_000);
  let host: DevHostFixture;
  let wire: string;
  sharedDevHost((started) => {
    host = started.host;
    wire = `${host.url}${host.porter.mount}`;
  });

  const as = (user: string) => ({ wire, headers: { 'x-demo-user': user } });

  /**
   * A new thread of `user`'s and a chat on it whose requests are recorded, with a paced answer
   * (`/slow <pace> <words>`, the scripted model's) under way: its first three words have landed.
   */
  async function chatWithSlowAnswer(user: string, pace: number, words: string) {
    const recorder = recordingFetch();
    const threadId = await createPorterThread(as(user));
    const chat = new HeadlessChat({ id: threadId, transport: porterChatTransport({ ...as(user), fetch: recorder.fetch }) });
    void chat.sendMessage({ text: `/slow ${pace} ${words}` });
    await chat.until(
      (c) => textOf(lastAssistant(c) ?? { id: '', role: 'assistant', parts: [] }).split(' ').length >= 3,
      'the answer to start',
    );
    return { recorder, threadId, chat };
  }

  it('runs a turn through the AI SDK chat, posting only the new message to the thread the chat is named after', async () => {
    const recorder = recordingFetch();
    const threadId = await createPorterThread(as('ana'));
    const chat = new HeadlessChat({ id: threadId, transport: porterChatTransport({ ...as('ana'), fetch: recorder.fetch }) });
    await chat.sendMessage({ text: 'hello over the transport' });
    expect(chat.status).to.equal('ready');
    expect(chat.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant']);
    expect(textOf(chat.messages[1]!)).to.equal('echo: hello over the transport');

    expect(recorder.sent).to.have.length(1);
    expect(recorder.sent[0]!.url).to.equal(`${wire}/threads/${threadId}/turn`);
    expect(recorder.sent[0]!.body).to.deep.equal({
      message: { id: chat.messages[0]!.id, role: 'user', parts: [{ type: 'text', text: 'hello over the transport' }] },
    });

    const stored = await loadPorterThread({ ...as('ana'), threadId });
    expect(stored.messages.map((m) => textOf(m))).to.deep.equal(['hello over the transport', 'echo: hello over the transport']);
    // The stored thread, handed to a new chat, carries on where it left off.
    const again = new HeadlessChat({ id: threadId, messages: stored.messages, transport: porterChatTransport(as('ana')) });
    await again.sendMessage({ text: 'and again' });
    expect(again.messages.map((m) => textOf(m))).to.deep.equal([
      'hello over the transport',
      'echo: hello over the transport',
      'and again',
      'echo: and again',
    ]);
  });

  it("regenerates the last answer with the AI SDK's regenerate(): the stored thread holds the new answer in its place", async () => {
    const recorder = recordingFetch();
    const threadId = await createPorterThread(as('rex'));
    const chat = new HeadlessChat({ id: threadId, transport: porterChatTransport({ ...as('rex'), fetch: recorder.fetch }) });
    await chat.sendMessage({ text: 'first words' });
    await chat.sendMessage({ text: 'second words' });
    const before = await loadPorterThread({ ...as('rex'), threadId });
    const replaced = before.messages.at(-1)!.id;

    await chat.regenerate();
    expect(chat.status).to.equal('ready');
    expect(recorder.sent.at(-1)!.body).to.deep.include({ trigger: 'regenerate-message' });
    expect(chat.messages.map((m) => textOf(m))).to.deep.equal(['first words', 'echo: first words', 'second words', 'echo: second words']);
    const after = await loadPorterThread({ ...as('rex'), threadId });
    expect(after.messages.map((m) => textOf(m))).to.deep.equal(['first words', 'echo: first words', 'second words', 'echo: second words']);
    expect(after.messages.at(-1)!.id, 'a new answer, not the old one kept').to.not.equal(replaced);
    expect(after.messages.map((m) => m.id)).to.not.include(replaced);

    // An older answer is not the last exchange: the wire refuses to rewrite history.
    const older = await fetch(`${wire}/threads/${threadId}/turn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-demo-user': 'rex' },
      body: JSON.stringify({ messages: [after.messages[0]], trigger: 'regenerate-message', messageId: after.messages[1]!.id }),
    });
    expect(older.status).to.equal(409);
  });

  it('edits and resends the last message with sendMessage({text, messageId}): it and its answer are replaced', async () => {
    const threadId = await createPorterThread(as('eve'));
    const chat = new HeadlessChat({ id: threadId, transport: porterChatTransport(as('eve')) });
    await chat.sendMessage({ text: 'hello' });
    await chat.sendMessage({ text: 'a typo hre' });
    const typo = chat.messages[2]!;
    await chat.sendMessage({ text: 'a typo here', messageId: typo.id });
    expect(chat.status).to.equal('ready');
    expect(chat.messages.map((m) => textOf(m))).to.deep.equal(['hello', 'echo: hello', 'a typo here', 'echo: a typo here']);
    const stored = await loadPorterThread({ ...as('eve'), threadId });
    expect(stored.messages.map((m) => textOf(m))).to.deep.equal(['hello', 'echo: hello', 'a typo here', 'echo: a typo here']);
  });

  it('answers an approval card with addToolApprovalResponse alone: the call runs exactly once', async () => {
    const recorder = recordingFetch();
    const threadId = await createPorterThread(as('ben'));
    const chat = new HeadlessChat({ ...porterChatOptions({ ...as('ben'), threadId, fetch: recorder.fetch }) });
    await chat.sendMessage({ text: '/call notes_add {"text":"milk"}' });
    const asked = toolPart(lastAssistant(chat)!, 'notes_add')!;
    expect(asked.state).to.equal('approval-requested');
    const approvalId = asked.approval.id as string;

    await chat.addToolApprovalResponse({ id: approvalId, approved: true });
    await chat.until(
      (c) => c.status === 'ready' && toolPart(lastAssistant(c)!, 'notes_add')?.state === 'output-available',
      'the approved call to run',
    );
    await chat.until((c) => textOf(lastAssistant(c)!).includes('notes_add returned'), 'the answer to carry on');
    expect(toolPart(lastAssistant(chat)!, 'notes_add')!.output).to.deep.equal({ added: 'milk', count: 1 });
    expect(
      chat.messages.map((m) => m.role),
      'the answer continues the same assistant message',
    ).to.deep.equal(['user', 'assistant']);

    // The answer went as just that: the tool part with its approval, nothing of the history.
    expect(recorder.sent).to.have.length(2);
    expect(recorder.sent[1]!.body).to.deep.equal({
      messages: [
        {
          id: lastAssistant(chat)!.id,
          role: 'assistant',
          parts: [
            {
              type: 'tool-notes_add',
              toolCallId: asked.toolCallId,
              state: 'approval-responded',
              approval: { id: approvalId, approved: true },
            },
          ],
        },
      ],
    });

    // Carrying on once more, or answering again, runs nothing twice.
    await chat.sendMessage();
    expect(recorder.sent[2]!.body).to.deep.equal({ continue: true });
    const ben = host.client.as('ben');
    expect((await ben.json('GET', `/approvals/${approvalId}`)).body.state).to.equal('executed');
    const listed = await ben.say(await ben.newThread(), '/call notes_list {}');
    expect(toolPart(listed.message, 'notes_list')!.output).to.deep.equal({ notes: ['milk'] });
  });

  it('sends a denial the same way, and the call never runs', async () => {
    const threadId = await createPorterThread(as('cat'));
    const chat = new HeadlessChat(porterChatOptions({ ...as('cat'), threadId }));
    await chat.sendMessage({ text: '/call notes_clear {}' });
    const approvalId = toolPart(lastAssistant(chat)!, 'notes_clear')!.approval.id as string;
    await chat.addToolApprovalResponse({ id: approvalId, approved: false, reason: 'not today' });
    await chat.until(
      (c) => c.status === 'ready' && toolPart(lastAssistant(c)!, 'notes_clear')?.state === 'output-denied',
      'the denial to land',
    );
    await chat.until((c) => textOf(lastAssistant(c)!).includes('denied'), 'the answer to say so');
    expect((await host.client.as('cat').json('GET', `/approvals/${approvalId}`)).body.state).to.equal('denied');
  });

  it('rejoins a turn after a reload: a new chat resumes mid-turn, sees it whole, and finds nothing once it is over', async () => {
    const words = numberedWords('w', 16);
    const { recorder: page, threadId, chat: first } = await chatWithSlowAnswer('dan', 2, words);
    page.unload();
    await first.until((c) => c.status !== 'streaming' && c.status !== 'submitted', 'the first page to lose its connection');

    // The reloaded page: the thread as stored, then `resume: true` reconnects.
    const stored = await loadPorterThread({ ...as('dan'), threadId });
    const second = new HeadlessChat({ id: threadId, messages: stored.messages, transport: porterChatTransport(as('dan')) });
    await second.resumeStream();
    expect(second.status).to.equal('ready');
    expect(second.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant']);
    expect(textOf(second.messages[1]!)).to.equal(words);
    expect(
      page.sent.some((s) => s.url.endsWith('/stop')),
      'a page going away is not a stop',
    ).to.equal(false);

    const transport = porterChatTransport(as('dan'));
    expect(await transport.reconnectToStream({ chatId: threadId })).to.equal(null);
  });

  it('hands a reconnecting transport the turn from its start, and the AI SDK reader folds it whole', async () => {
    const threadId = await createPorterThread(as('eve'));
    const started = await submitThroughTransport(as('eve'), threadId, '/slow 1 one two three four five');
    const rejoined = await porterChatTransport({ ...as('eve'), threadId }).reconnectToStream({ chatId: 'ignored-when-threadId-is-given' });
    expect(rejoined).to.not.equal(null);
    const [whole, mine] = await Promise.all([readAll(rejoined!), readAll(started)]);
    expect(textOf(whole)).to.equal('one two three four five');
    expect(whole.id).to.equal(mine.id);
  });

  it('stops the turn on the server when the chat is stopped, so the next message goes straight through', async () => {
    const words = numberedWords('s', 40);
    const { recorder, threadId, chat } = await chatWithSlowAnswer('fay', 8, words);
    await chat.stop();
    await chat.sendMessage({ text: 'next' });
    expect(recorder.sent.map((s) => `${s.method} ${s.url.slice(wire.length)}`)).to.deep.equal([
      `POST /threads/${threadId}/turn`,
      `POST /threads/${threadId}/stop`,
      `POST /threads/${threadId}/turn`,
    ]);
    expect(textOf(lastAssistant(chat)!)).to.equal('echo: next');
    const stored = await loadPorterThread({ ...as('fay'), threadId });
    const kept = textOf(stored.messages[1]!);
    expect(kept.startsWith('s0 s1')).to.equal(true);
    expect(kept.length, 'the answer was cut short on the server').to.be.lessThan(words.length);
  });

  it('does not stop the turn when a newer resumeStream() replaces a reconnect', async () => {
    const threadId = await createPorterThread(as('gus'));
    const started = await submitThroughTransport(as('gus'), threadId, '/slow 1 a b c d e f');
    const recorder = recordingFetch();
    const chat = new HeadlessChat({ id: threadId, transport: porterChatTransport({ ...as('gus'), fetch: recorder.fetch }) });
    void chat.resumeStream();
    await chat.resumeStream();
    expect(textOf(lastAssistant(chat)!)).to.equal('a b c d e f');
    expect(textOf(await readAll(started))).to.equal('a b c d e f');
    expect(recorder.sent.filter((s) => s.url.endsWith('/stop'))).to.deep.equal([]);
  });

  it('says what went wrong: a thread that is not yours, and body fields the wire does not take', async () => {
    const threadId = await createPorterThread(as('hal'));
    const stranger = new HeadlessChat({ id: threadId, transport: porterChatTransport(as('ivy')) });
    await stranger.sendMessage({ text: 'hi' });
    expect(stranger.status).to.equal('error');
    expect(JSON.parse(stranger.error!.message).error.code).to.equal('not-found');
    let refused: unknown;
    try {
      await loadPorterThread({ ...as('ivy'), threadId });
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(PorterWireError);
    expect(refused).to.deep.include({ status: 404, code: 'not-found' });

    const extra = new HeadlessChat({ id: threadId, transport: porterChatTransport(as('hal')) });
    await extra.sendMessage({ text: 'hi' }, { body: { temperature: 2 } });
    expect(extra.error?.message).to.contain('no extra body fields');
  });
});

describe('porter-runtime/client: rejoining a turn that carries on after an approval', function () {
  this.timeout(30_000);
  let host: DevHostFixture;
  let wire: string;
  // A write (so it asks first) that takes as long as the test says.
  const fileReport = gatedTool({ name: 'file_report', description: 'files a report', risk: 'write' }, { filed: true });
  sharedDevHost(
    (started) => {
      host = started.host;
      wire = `${host.url}${host.porter.mount}`;
    },
    () => ({ porter: { tools: [fileReport.tool] } }),
  );

  it("rebuilds the answer being continued for a chat that rejoins mid-way, so the call's result lands on it", async () => {
    const options = { wire, headers: { 'x-demo-user': 'jon' } };
    const threadId = await createPorterThread(options);
    const page = recordingFetch();
    const first = new HeadlessChat(porterChatOptions({ ...options, threadId, fetch: page.fetch }));
    await first.sendMessage({ text: '/call file_report {}' });
    const approvalId = toolPart(lastAssistant(first)!, 'file_report')!.approval.id as string;
    await first.addToolApprovalResponse({ id: approvalId, approved: true });
    await page.whenAnswered(2);
    expect(page.answered).to.deep.equal([200, 200]);
    page.unload();

    const stored = await loadPorterThread({ ...options, threadId });
    const second = new HeadlessChat({ ...porterChatOptions({ ...options, threadId }), messages: stored.messages });
    const rejoined = second.resumeStream();
    await second.until((c) => c.status === 'streaming', 'the rejoined turn to stream');
    fileReport.release();
    await rejoined;
    expect(second.error).to.equal(undefined);
    expect(second.messages.map((m) => m.role)).to.deep.equal(['user', 'assistant']);
    const answer = second.messages[1]!;
    expect(answer.id).to.equal(stored.messages[1]!.id);
    expect(toolPart(answer, 'file_report')).to.deep.include({ state: 'output-available', output: { filed: true } });
    expect(
      answer.parts.filter((p) => p.type === 'tool-file_report'),
      'the call once, not rebuilt twice',
    ).to.have.length(1);
    expect(textOf(answer)).to.contain('file_report returned');
    expect((await host.client.as('jon').json('GET', `/approvals/${approvalId}`)).body.state).to.equal('executed');
  });
});
