import { expect } from 'chai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { containerOf } from '../../composition/porter-container.js';
import { USAGE_TOKENS } from '../../composition/modules/usage-tokens.js';
import { get, TOKENS } from '../../composition/tokens.js';
import { everyRecord } from '../../ports/store.js';
import { devHost, type DevHostFixture } from '../support/dev-host-fixture.js';
import { devHostOn, ON_MEMORY_STORE, ON_POSTGRESQL, ON_SQLITE, type HostStore } from '../support/host-stores.js';
import { readTurn, type WireClient } from '../support/turn-client.js';
import { ELF, PNG, pdfSaying, providerStandIn, type ProviderStandIn } from '../support/upload-samples.js';

/** Uploads `bytes` into the thread as `type`, as a browser's fetch would. */
async function upload(client: WireClient, threadId: string, bytes: Uint8Array, type: string, filename: string): Promise<Response> {
  return fetch(`${client.base}/threads/${threadId}/files?filename=${encodeURIComponent(filename)}`, {
    method: 'POST',
    headers: { ...client.headers, 'content-type': type },
    body: new Blob([new Uint8Array(bytes)]),
  });
}

async function uploaded(client: WireClient, threadId: string, bytes: Uint8Array, type: string, filename: string) {
  const answer = await upload(client, threadId, bytes, type, filename);
  expect(answer.status, await answer.clone().text()).to.equal(201);
  return (await answer.json()) as { id: string; url: string; mediaType: string; filename: string; size: number };
}

function say(client: WireClient, threadId: string, parts: unknown[]): Promise<Response> {
  return client.send('POST', `/threads/${threadId}/turn`, { message: { role: 'user', parts } });
}

/** What the store holds of uploads: file records and their blob chunks. */
async function storedUploads(host: DevHostFixture): Promise<{ files: number; chunks: number }> {
  const store = get(containerOf(host.porter), TOKENS.Store);
  const files = await everyRecord(store.records<{ id: string }>('files'));
  let chunks = 0;
  for (const file of files) chunks += (await store.blobs(`porter-file:${file.id}`).list()).length;
  return { files: files.length, chunks };
}

async function chunkCount(host: DevHostFixture, fileId: string): Promise<number> {
  return (await get(containerOf(host.porter), TOKENS.Store).blobs(`porter-file:${fileId}`).list()).length;
}

describe('Uploads: files attached to messages reach the model in its provider’s own shape', function () {
  this.timeout(60_000);
  let provider: ProviderStandIn | undefined;
  let host: DevHostFixture | undefined;
  afterEach(async () => {
    await host?.close();
    await provider?.close();
    host = provider = undefined;
  });

  it('OpenAI Chat Completions gets the image as image_url and the PDF as a file part, both as base64 data', async () => {
    provider = await providerStandIn('openai');
    host = await devHost({ porter: { model: createOpenAI({ baseURL: provider.url, apiKey: 'test' }).chat('gpt-4o') } });
    const ada = host.client.as('ada');
    const thread = await ada.newThread();
    const image = await uploaded(ada, thread, PNG, 'image/png', 'dot.png');
    const pdf = await uploaded(ada, thread, pdfSaying('Quarterly figures'), 'application/pdf', 'report.pdf');
    expect(image).to.deep.include({ mediaType: 'image/png', filename: 'dot.png', size: PNG.length });
    expect(image.url).to.equal(`/api/porter/files/${image.id}`);

    const turn = await readTurn(
      await say(ada, thread, [
        { type: 'text', text: 'What are these?' },
        { type: 'file', mediaType: 'image/png', url: image.url, filename: 'dot.png' },
        { type: 'file', mediaType: 'application/pdf', url: pdf.url, filename: 'report.pdf' },
      ]),
    );
    expect(turn.chunks.at(-1)).to.deep.include({ type: 'finish' });
    const user = provider.bodies[0].messages.find((m: any) => m.role === 'user');
    expect(user.content).to.deep.include({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } });
    const file = user.content.find((part: any) => part.type === 'file');
    expect(file.file.filename).to.equal('report.pdf');
    expect(file.file.file_data).to.equal(`data:application/pdf;base64,${pdfSaying('Quarterly figures').toString('base64')}`);

    // The thread keeps the file parts as sent (the url, not the bytes), and the owner reads them back.
    const stored = (await ada.json('GET', `/threads/${thread}`)).body.messages[0];
    expect(stored.parts[1]).to.deep.equal({ type: 'file', mediaType: 'image/png', url: image.url, filename: 'dot.png' });
    const back = await fetch(`${host.url}${image.url}`, { headers: ada.headers });
    expect(back.status).to.equal(200);
    expect(back.headers.get('content-type')).to.equal('image/png');
    expect(back.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(Buffer.from(await back.arrayBuffer()).equals(PNG)).to.equal(true);
  });

  it('Anthropic Messages gets the image as an image block and the PDF as a document block', async () => {
    provider = await providerStandIn('anthropic');
    host = await devHost({ porter: { model: createAnthropic({ baseURL: provider.url, apiKey: 'test' })('claude-sonnet-4-5') } });
    const ada = host.client.as('ada');
    const thread = await ada.newThread();
    const image = await uploaded(ada, thread, PNG, 'image/png', 'dot.png');
    const pdf = await uploaded(ada, thread, pdfSaying('Quarterly figures'), 'application/pdf', 'report.pdf');
    await readTurn(
      await say(ada, thread, [
        { type: 'text', text: 'What are these?' },
        { type: 'file', mediaType: 'image/png', url: image.url },
        { type: 'file', mediaType: 'application/pdf', url: pdf.url },
      ]),
    );
    const user = provider.bodies[0].messages.find((m: any) => m.role === 'user');
    expect(user.content).to.deep.include({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') },
    });
    const document = user.content.find((part: any) => part.type === 'document');
    expect(document.source).to.deep.equal({
      type: 'base64',
      media_type: 'application/pdf',
      data: pdfSaying('Quarterly figures').toString('base64'),
    });
  });

  it('a model that reads images only gets the PDF as its extracted text, and a text file as text', async () => {
    provider = await providerStandIn('openai');
    host = await devHost({
      porter: {
        model: createOpenAICompatible({ name: 'local', baseURL: provider.url }).chatModel('llava'),
        uploads: { modelReads: ['image/*'] },
      },
    });
    const ada = host.client.as('ada');
    const thread = await ada.newThread();
    const pdf = await uploaded(ada, thread, pdfSaying('Quarterly figures'), 'application/pdf', 'report.pdf');
    const notes = await uploaded(ada, thread, Buffer.from('buy milk\n'), 'text/markdown', 'notes.md');
    await readTurn(
      await say(ada, thread, [
        { type: 'text', text: 'Summarise' },
        { type: 'file', mediaType: 'application/pdf', url: pdf.url },
        { type: 'file', mediaType: 'text/markdown', url: notes.url },
      ]),
    );
    const sent = JSON.stringify(provider.bodies[0].messages);
    expect(sent).to.contain('Quarterly figures');
    expect(sent).to.contain('buy milk');
    expect(sent).to.not.contain(pdfSaying('Quarterly figures').toString('base64').slice(0, 40));
  });

  it('a type the model can neither read nor be given as text is refused when attached (415), before the turn', async () => {
    provider = await providerStandIn('openai');
    host = await devHost({
      porter: {
        model: createOpenAI({ baseURL: provider.url, apiKey: 'test' }).chat('gpt-4o'),
        uploads: { modelReads: ['application/pdf'] },
      },
    });
    const ada = host.client.as('ada');
    const thread = await ada.newThread();
    const image = await uploaded(ada, thread, PNG, 'image/png', 'dot.png');
    const refused = await say(ada, thread, [{ type: 'file', mediaType: 'image/png', url: image.url }]);
    expect(refused.status).to.equal(415);
    expect((await refused.json()).error.message).to.contain('cannot read image/png');
    expect(provider.bodies).to.have.length(0);
  });
});

/** The stores the refusals are proven on: the host's store option, or the database Porter opens. */
const STORES = [ON_SQLITE, ON_MEMORY_STORE, ON_POSTGRESQL];

for (const store of STORES) describeRefusals(store);

function describeRefusals(on: HostStore): void {
  describe(`Uploads on ${on.name}: refusals leave nothing stored, and files are their owner’s alone`, function () {
    this.timeout(60_000);
    let host: DevHostFixture;
    let ada: WireClient;
    devHostOn(on, { porter: { uploads: { maxBytes: 64 * 1024 } } }, (started) => {
      host = started;
      ada = host.client.as('ada');
    });

    it('an oversize upload is refused while it streams (413) and nothing is stored', async () => {
      const thread = await ada.newThread();
      const before = await storedUploads(host);
      // A PNG signature, then far more than the cap: sniffed as accepted, refused by size.
      const big = Buffer.concat([PNG, Buffer.alloc(512 * 1024, 7)]);
      const answer = await upload(ada, thread, big, 'image/png', 'big.png');
      expect(answer.status).to.equal(413);
      expect((await answer.json()).error.code).to.equal('payload-too-large');
      expect(await storedUploads(host)).to.deep.equal(before);
    });

    it('an oversize upload streamed without a length (chunked) is refused too, with nothing stored', async () => {
      const thread = await ada.newThread();
      const before = await storedUploads(host);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(PNG));
          for (let i = 0; i < 8; i++) controller.enqueue(new Uint8Array(16 * 1024));
          controller.close();
        },
      });
      const answer = await fetch(`${ada.base}/threads/${thread}/files`, {
        method: 'POST',
        headers: { ...ada.headers, 'content-type': 'image/png' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(answer.status).to.equal(413);
      expect(await storedUploads(host)).to.deep.equal(before);
    });

    it('a lying upload is refused (415) with nothing stored: an executable sent as a PNG, a PNG sent as text', async () => {
      const thread = await ada.newThread();
      const before = await storedUploads(host);
      const executable = await upload(ada, thread, ELF, 'image/png', 'cat.png');
      expect(executable.status).to.equal(415);
      expect((await executable.json()).error.code).to.equal('unsupported-media-type');
      // Its signature decides: a PNG declared as Markdown is stored as what it is.
      const png = await uploaded(ada, thread, PNG, 'text/markdown', 'notes.md');
      expect(png.mediaType).to.equal('image/png');
      // Binary bytes without a signature are no text, whatever the client says.
      const binary = await upload(ada, thread, Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe]), 'text/markdown', 'x.md');
      expect(binary.status).to.equal(415);
      // A form type is refused outright (another site could send one without a preflight).
      const form = await upload(ada, thread, Buffer.from('hello'), 'text/plain', 'x.txt');
      expect(form.status).to.equal(415);
      const after = await storedUploads(host);
      expect(after.files).to.equal(before.files + 1);
    });

    it("another person's file is never returned (404), nor can it be attached to their message", async () => {
      const thread = await ada.newThread();
      const file = await uploaded(ada, thread, PNG, 'image/png', 'dot.png');
      const bob = host.client.as('bob');
      const read = await fetch(`${host.url}${file.url}`, { headers: bob.headers });
      expect(read.status).to.equal(404);
      expect((await read.json()).error.code).to.equal('not-found');
      // Into ada's thread: not bob's thread.
      expect((await upload(bob, thread, PNG, 'image/png', 'x.png')).status).to.equal(404);
      const bobsThread = await bob.newThread();
      const attach = await say(bob, bobsThread, [{ type: 'file', mediaType: 'image/png', url: file.url }]);
      expect(attach.status).to.equal(404);
      // A url elsewhere is refused outright: bytes come only through the upload.
      for (const url of [
        `data:image/png;base64,${PNG.toString('base64')}`,
        'https://example.com/cat.png',
        `https://evil.example${file.url}`,
      ]) {
        const refused = await say(bob, bobsThread, [{ type: 'file', mediaType: 'image/png', url }]);
        expect(refused.status, url).to.equal(400);
      }
    });

    it('deleting a thread deletes its files: metadata and every blob chunk', async () => {
      const thread = await ada.newThread();
      const first = await uploaded(ada, thread, PNG, 'image/png', 'a.png');
      const second = await uploaded(ada, thread, Buffer.from('some notes\n'), 'text/markdown', 'b.md');
      expect(await chunkCount(host, first.id)).to.equal(1);
      expect((await ada.send('DELETE', `/threads/${thread}`)).status).to.equal(204);
      for (const file of [first, second]) {
        expect(await chunkCount(host, file.id)).to.equal(0);
        expect((await fetch(`${host.url}${file.url}`, { headers: ada.headers })).status).to.equal(404);
      }
      const store = get(containerOf(host.porter), TOKENS.Store);
      const left = await everyRecord(store.records<{ thread: string }>('files'), { thread });
      expect(left).to.have.length(0);
    });

    it('more files in one message than the host allows is 400', async () => {
      const thread = await ada.newThread();
      const file = await uploaded(ada, thread, PNG, 'image/png', 'a.png');
      const parts = Array.from({ length: 6 }, () => ({ type: 'file', mediaType: 'image/png', url: file.url }));
      expect((await say(ada, thread, parts)).status).to.equal(400);
    });
  });
}

describe('Uploads count against the uploadBytes budget', function () {
  this.timeout(60_000);
  let host: DevHostFixture;
  before(async () => {
    host = await devHost({ porter: { limits: { uploadBytes: { max: 100, windowSeconds: 3600 } } } });
  });
  after(async () => host.close());

  it('an upload past the budget is 429 and removed again; the next is refused up front', async () => {
    const ada = host.client.as('ada');
    const thread = await ada.newThread();
    await uploaded(ada, thread, PNG, 'image/png', 'dot.png');
    const before = await storedUploads(host);
    const over = await upload(ada, thread, PNG, 'image/png', 'again.png');
    expect(over.status).to.equal(429);
    expect((await over.json()).error.details.budget).to.equal('uploadBytes');
    expect(await storedUploads(host)).to.deep.equal(before);
    const usage = (await ada.json('GET', '/usage')).body.budgets.uploadBytes;
    expect(usage).to.deep.include({ used: PNG.length, max: 100 });
    const refused = await upload(ada, thread, PNG, 'image/png', 'third.png');
    expect(refused.status).to.equal(429);
  });

  it('an upload into a thread deleted while it streamed in is 404, and charges nothing', async () => {
    const grace = host.client.as('grace');
    const thread = await grace.newThread();
    const usedBefore = (await grace.json('GET', '/usage')).body.budgets.uploadBytes.used;
    const before = await storedUploads(host);
    const checked = pastUpFrontChecks(host, 'grace');
    let body!: ReadableStreamDefaultController<Uint8Array>;
    const answer = fetch(`${grace.base}/threads/${thread}/files?filename=dot.png`, {
      method: 'POST',
      headers: { ...grace.headers, 'content-type': 'image/png' },
      body: new ReadableStream<Uint8Array>({ start: (controller) => void (body = controller) }),
      duplex: 'half',
    } as RequestInit);
    body.enqueue(new Uint8Array(PNG));
    // The upload found its thread and now waits for the rest of its bytes: the thread goes meanwhile.
    await checked;
    const deleted = await grace.send('DELETE', `/threads/${thread}`);
    expect(deleted.status).to.be.oneOf([200, 204]);
    body.close();
    const refused = await answer;
    expect(refused.status, await refused.clone().text()).to.equal(404);
    expect(await storedUploads(host)).to.deep.equal(before);
    expect((await grace.json('GET', '/usage')).body.budgets.uploadBytes.used).to.equal(usedBefore);
  });
});

/**
 * Settles once an upload of `subject` is past its up-front checks (its thread is theirs, budget
 * left) and goes on to read its body: the meter's `ensureLeft` is the last of them.
 */
function pastUpFrontChecks(host: DevHostFixture, subject: string): Promise<void> {
  const meter = get(containerOf(host.porter), USAGE_TOKENS.UsageMeter);
  const ensureLeft = meter.ensureLeft;
  return new Promise((resolve, reject) => {
    meter.ensureLeft = async (payer, name) => {
      await ensureLeft.call(meter, payer, name);
      if (name !== 'uploadBytes' || (typeof payer === 'string' ? payer : payer.subject) !== subject) return;
      meter.ensureLeft = ensureLeft;
      resolve();
    };
    setTimeout(() => reject(new Error(`No upload of ${subject} got past its checks`)), 10_000).unref();
  });
}
