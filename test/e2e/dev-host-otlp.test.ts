import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOtlpExport } from '../../composition/dev-host/otlp-export.js';
import { devHost } from '../support/dev-host-fixture.js';
import { freePort } from '../support/http-server.js';
import { until } from '../support/eventually.js';
import { WireClient } from '../support/turn-client.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const MAIN = join(ROOT, 'composition', 'dev-host', 'main.ts');

interface Export {
  readonly path: string;
  readonly contentType: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** A stand-in OTLP collector: keeps every request it receives. */
async function collector(): Promise<{ server: Server; url: string; received: Export[] }> {
  const received: Export[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      res
        .writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' })
        .end(req.headers['content-type']?.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, received };
}

/** The export that carries a turn span, once one came. */
const turnExport = (received: Export[]) => received.find((e) => e.body.includes('porter.turn'));

describe('The development host exports OTLP over HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set', function () {
  this.timeout(60_000);
  let otlp: Awaited<ReturnType<typeof collector>>;

  before(async () => {
    otlp = await collector();
  });
  after(() => new Promise((resolve) => otlp.server.close(resolve)));
  beforeEach(() => (otlp.received.length = 0));

  for (const protocol of ['http/json', 'http/protobuf'] as const) {
    it(`sends a turn's span to {endpoint}/v1/traces as ${protocol}, with the service name and headers the OTEL_* variables give`, async () => {
      const exporting = startOtlpExport({
        OTEL_EXPORTER_OTLP_ENDPOINT: `${otlp.url}/`,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=k%201',
        OTEL_SERVICE_NAME: `porter-otlp-${protocol.slice(5)}`,
        OTEL_BSP_SCHEDULE_DELAY: '20',
      })!;
      const host = await devHost();
      try {
        expect(exporting).to.deep.include({ url: `${otlp.url}/v1/traces`, protocol });
        const ada = host.client.as('ada');
        await ada.say(await ada.newThread(), 'hello');
        const sent = await until(
          () => turnExport(otlp.received),
          (e) => e !== undefined,
          { what: 'an OTLP export with a porter.turn span' },
        );
        expect(sent!.path).to.equal('/v1/traces');
        expect(sent!.contentType).to.contain(protocol === 'http/json' ? 'application/json' : 'application/x-protobuf');
        expect(sent!.headers['x-collector-key']).to.equal('k 1');
        expect(sent!.body.includes(`porter-otlp-${protocol.slice(5)}`)).to.equal(true);
        expect(sent!.body.includes('ai.streamText')).to.equal(true);
        if (protocol === 'http/json') {
          const names = (
            JSON.parse(sent!.body.toString()) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }> }
          ).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => span.name)));
          expect(names).to.include('porter.turn');
        }
      } finally {
        await host.close();
        await exporting.shutdown();
      }
    });
  }

  it('exports nothing and registers nothing without an endpoint, or with OTEL_SDK_DISABLED=true', () => {
    expect(startOtlpExport({})).to.equal(null);
    expect(startOtlpExport({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_SDK_DISABLED: 'true' })).to.equal(null);
    expect(() => startOtlpExport({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).to.throw(
      /http\/protobuf or http\/json/,
    );
  });

  it('npm start (a spawned process) sends a turn to the collector', async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(TSX, [MAIN], {
      cwd: mkdtempSync(join(tmpdir(), 'porter-otlp-')),
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'development',
        PORT: String(port),
        PORTER_DATABASE_URL: 'sqlite::memory:',
        PORTER_SECRET: 'a-development-secret-for-the-tests-0123456789',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_SERVICE_NAME: 'porter-npm-start',
        OTEL_BSP_SCHEDULE_DELAY: '20',
      },
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('close', resolve));
    try {
      await until(
        () => output,
        (said) => said.includes('listening on') || child.exitCode !== null,
        { timeoutMs: 45_000, what: 'npm start listening' },
      );
      expect(output).to.contain(`Porter's traces go to ${otlp.url}/v1/traces (OTLP http/protobuf)`);
      const ada = new WireClient(`http://127.0.0.1:${port}/api/porter`).as('ada');
      await ada.say(await ada.newThread(), 'hello');
      const sent = await until(
        () => turnExport(otlp.received),
        (e) => e !== undefined,
        { what: 'an OTLP export with a porter.turn span' },
      );
      expect(sent!.body.includes('porter-npm-start')).to.equal(true);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
