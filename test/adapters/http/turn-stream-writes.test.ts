import { expect } from 'chai';
import type { Socket } from 'node:net';
import { ScriptedLanguageModel } from '../../../adapters/model/scripted-language-model.js';
import { createPorter, type Porter } from '../../../composition/create-porter.js';
import { serve, type RunningServer } from '../../support/http-server.js';
import { createTestDatabase, postgresServerUrl, type TestDatabase } from '../../support/postgres.js';

/** What a socket handed the kernel, one entry a write (a corked run of writes is one). */
function recordWrites(socket: Socket, writes: string[]): void {
  const internals = socket as unknown as {
    _writev(chunks: Array<{ chunk: Buffer | string }>, callback: (error?: Error | null) => void): void;
    _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void;
  };
  const writev = internals._writev.bind(socket);
  const write = internals._write.bind(socket);
  internals._writev = (chunks, callback) => {
    writes.push(chunks.map(({ chunk }) => chunk.toString()).join(''));
    writev(chunks, callback);
  };
  internals._write = (chunk, encoding, callback) => {
    writes.push(chunk.toString());
    write(chunk, encoding, callback);
  };
}

/**
 * Each socket write is a system call and, on loopback, the kernel's delivery to the reader: a
 * turn's stream writes what the turn emitted together in one write, and its end in one. On
 * PostgreSQL, where the turn lets its thread go in a round trip between its `finish` and its end.
 */
describe("A turn's event stream on the socket", function () {
  this.timeout(30_000);
  let database: TestDatabase | null = null;
  let porter: Porter | null = null;
  let server: RunningServer | null = null;
  const writes: string[] = [];

  before(async function () {
    const postgres = await postgresServerUrl();
    if (!postgres) return this.skip();
    database = await createTestDatabase(postgres);
    porter = await createPorter(
      {
        model: new ScriptedLanguageModel(),
        titleModel: false,
        principal: () => ({ subject: 'ada', kind: 'user' }),
        databaseUrl: database.url,
        secret: 'w'.repeat(40),
        logger: 'silent',
      },
      {},
    );
    server = await serve(porter.listener);
    server.server.on('connection', (socket: Socket) => recordWrites(socket, writes));
  });
  after(async () => {
    await server?.close();
    await porter?.close();
    await database?.drop();
  });

  it('sends the turn’s finish, [DONE] and the end of the response in one write', async () => {
    const json = { 'content-type': 'application/json' };
    const { id } = (await (await fetch(`${server!.url}/api/porter/threads`, { method: 'POST', headers: json, body: '{}' })).json()) as {
      id: string;
    };
    writes.length = 0;
    const answer = await (
      await fetch(`${server!.url}/api/porter/threads/${id}/turn`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ message: 'hello there' }),
      })
    ).text();
    expect(answer).to.include('"type":"finish"').and.to.include('[DONE]');
    const last = writes.at(-1)!;
    expect(last, writes.join('\n---\n')).to.include('"type":"finish"');
    expect(last).to.include('data: [DONE]');
    expect(last.endsWith('0\r\n\r\n'), 'the chunked body ends in the same write').to.equal(true);
    expect(
      writes.filter((write) => write.includes('"type":"finish"')),
      'finish is written once',
    ).to.have.length(1);
  });
});
