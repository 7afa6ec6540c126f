import { expect } from 'chai';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatCompletionsServer, scriptedCompletions, type ChatCompletionsServer } from '../support/chat-completions-server.js';
import { freePort } from '../support/http-server.js';
import { runHostScenario } from '../support/host-scenario.js';
import { diagnosticsByPage, documentationPages, typeScriptBlocks, writeBlocks } from '../support/markdown-code-blocks.js';
import { staticPackageImports } from '../support/static-imports.js';
import { packedPackage, run, startHost as start, stopHost as stop, succeed } from '../support/packed-package.js';
import semver from 'semver';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** A production host: its secret from the environment, its model an OpenAI-compatible server. */
const hostEnv = (model: ChatCompletionsServer, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  NODE_ENV: 'production',
  PORTER_MODEL_URL: model.url,
  PORTER_MODEL: 'scripted',
  PORTER_DATABASE_URL: 'sqlite::memory:',
  PORTER_SECRET: 'a-secret-for-the-packaged-examples-0123456789',
  ORDERS_WEBHOOK_SECRET: WEBHOOK_SECRET,
  NEXT_TELEMETRY_DISABLED: '1',
  ...extra,
});

describe('the published package (npm pack, installed into a fresh host, run with plain node)', function () {
  this.timeout(15 * 60_000);
  let work: string;
  let host: string;
  let tarball: string;
  let packedFiles: string[];
  let model: ChatCompletionsServer;

  before(async () => {
    model = await chatCompletionsServer(scriptedCompletions);
    work = mkdtempSync(join(tmpdir(), 'porter-package-'));
    // `npm pack` runs the `prepack` build: dist/ with the JavaScript, declarations and the chrome.
    ({ tarball, files: packedFiles } = await packedPackage());
    expect(packedFiles.length).to.be.greaterThan(0);

    host = join(work, 'host');
    cpSync(join(ROOT, 'examples'), host, { recursive: true, filter: (path) => !path.includes(`${join('examples', 'dist')}`) });
    const examples = JSON.parse(readFileSync(join(host, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    examples.dependencies['porter-runtime'] = `file:${tarball}`;
    // The examples' own manifest has what their README's commands need: Next itself for the Next.js
    // example, and the React it renders with (the React Porter is tested with).
    expect(examples.dependencies, 'examples/package.json').to.include.keys('next', 'koa', 'express', 'hono', '@hono/node-server');
    for (const name of ['react', 'react-dom']) expect(examples.dependencies[name], name).to.equal(MANIFEST.devDependencies[name]);
    expect(examples.devDependencies['@types/react']).to.equal(MANIFEST.devDependencies['@types/react']);
    // The model comes from an OpenAI-compatible server, through the optional provider package. A
    // browser host's chat is the AI SDK's own `ai` and `@ai-sdk/react` (the versions Porter is tested with).
    Object.assign(examples.dependencies, {
      '@ai-sdk/openai-compatible': MANIFEST.devDependencies['@ai-sdk/openai-compatible']!,
      // The documentation's blocks name Anthropic's provider (docs/operations.md).
      '@ai-sdk/anthropic': MANIFEST.devDependencies['@ai-sdk/anthropic']!,
      ai: MANIFEST.dependencies.ai!,
      '@ai-sdk/react': MANIFEST.devDependencies['@ai-sdk/react']!,
    });
    writeFileSync(join(host, 'package.json'), JSON.stringify(examples, null, 2));
    await succeed('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], host);
  });

  after(async () => {
    await model?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('ships the built runtime, its declarations, the prebuilt chrome and served page, the licence and the changelog; no tests, benches or screenshots', () => {
    const files = packedFiles;
    for (const needed of [
      'package.json',
      'LICENSE',
      'CHANGELOG.md',
      'README.md',
      'dist/composition/index.js',
      'dist/composition/index.d.ts',
      'dist/composition/cli/bin.js',
      'dist/composition/chrome.d.ts',
      'dist/composition/client.d.ts',
      'dist/composition/testing.d.ts',
      'dist/composition/next.d.ts',
      'dist/composition/react.js',
      'dist/composition/react.d.ts',
      'dist/adapters/chrome/assets/manifest.json',
      'dist/adapters/apps/assets/served-page.js',
    ]) {
      expect(files, needed).to.include(needed);
    }
    expect(
      files.filter((path) => /^(test|bench|examples|scripts)\//.test(path) || path.endsWith('.png')),
      'nothing of the repository beside the runtime',
    ).to.deep.equal([]);
    expect(
      files.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts')),
      'no TypeScript sources',
    ).to.deep.equal([]);
  });

  it('imports, before any option is read, only packages it depends on: every optional one is loaded on demand', () => {
    const installed = join(host, 'node_modules', 'porter-runtime');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
    };
    const entries = [
      'dist/composition/index.js',
      'dist/composition/chrome.js',
      'dist/composition/client.js',
      'dist/composition/testing.js',
      'dist/composition/next.js',
      'dist/composition/cli/bin.js',
    ].map((path) => join(installed, path));
    const imported = staticPackageImports(entries);
    const undeclared = [...imported.keys()].filter((name) => !(name in manifest.dependencies));
    expect(
      undeclared,
      `imported statically but not a dependency: ${undeclared.map((name) => `${name} (${imported.get(name)![0]})`).join(', ')}`,
    ).to.deep.equal([]);
    for (const optional of Object.keys(manifest.peerDependencies)) expect(imported.has(optional), optional).to.equal(false);

    // porter-runtime/react is for React hosts only: it may import its optional peers, and nothing else undeclared.
    // (Both builds: the browser's, and the server render Node loads through `module-sync`.)
    const reactEntry = staticPackageImports(
      ['dist/composition/react.js', 'dist/composition/react-server-render.js'].map((path) => join(installed, path)),
    );
    const outside = [...reactEntry.keys()].filter((name) => !(name in manifest.dependencies));
    expect(outside.sort(), 'porter-runtime/react imports besides its dependencies').to.deep.equal(['@ai-sdk/react', 'react']);
    for (const name of outside) expect(manifest.peerDependencies, name).to.have.property(name);
  });

  it('installs nothing that needs a newer Node than its own engines range says', () => {
    const lock = JSON.parse(readFileSync(join(host, 'package-lock.json'), 'utf8')) as {
      packages: Record<
        string,
        { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; engines?: { node?: string } }
      >;
    };
    const installed = join(host, 'node_modules', 'porter-runtime');
    const floor = semver.minVersion(
      (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node,
    )!.version;
    // Everything porter-runtime pulls in, following the lock from its own entry (not the examples' frameworks).
    const resolve = (from: string, name: string): string | null => {
      for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
        const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
        if (lock.packages[candidate]) return candidate;
        if (!base) return null;
      }
    };
    const seen = new Set<string>();
    const stack = ['node_modules/porter-runtime'];
    while (stack.length) {
      const at = stack.pop()!;
      if (seen.has(at) || !existsSync(join(host, at))) continue;
      seen.add(at);
      const entry = lock.packages[at]!;
      for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
        const found = resolve(at, name);
        if (found) stack.push(found);
      }
    }
    const tooNew = [...seen]
      .filter((at) => lock.packages[at]!.engines?.node && !semver.satisfies(floor, lock.packages[at]!.engines!.node!))
      .map((at) => `${at} (${lock.packages[at]!.engines!.node})`);
    expect(seen.size).to.be.greaterThan(50);
    expect(tooNew, `needs more than Node ${floor}`).to.deep.equal([]);
  });

  it('type-checks host files against the shipped declarations (strict, exactOptionalPropertyTypes): the server side with skipLibCheck off, useChat, AI SDK and porter-runtime/react hosts, the typed wire client, porter-runtime/testing', async () => {
    const check = (file: string, skipLibCheck: boolean) => {
      cpSync(join(ROOT, 'test', 'fixtures', file), join(host, 'types', file));
      const compilerOptions = {
        target: 'ES2023',
        lib: ['ES2023', 'DOM'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        skipLibCheck,
        jsx: 'react-jsx',
        types: ['node'],
      };
      writeFileSync(join(host, 'types', `${file}.json`), JSON.stringify({ compilerOptions, files: [file] }));
      return succeed(join(host, 'node_modules', '.bin', 'tsc'), ['-p', join('types', `${file}.json`)], host);
    };
    // Seven separate compilations, two at a time (each tsc is one process: two use both cores).
    const checks: Array<[string, boolean]> = [
      // The server side: every declaration Porter ships, and all they reach, is checked.
      ['host-types.ts', false],
      // The browser side reaches the AI SDK's declarations, which do not pass exactOptionalPropertyTypes themselves.
      ['client-types.ts', true],
      // A React host's useChat (@ai-sdk/react) spread with porterChatOptions, and a server host handing
      // Porter a provider's model and an AI SDK tool(): the AI SDK's current major on both sides.
      ['use-chat-host.ts', true],
      ['ai-sdk-host.ts', true],
      // The typed wire client (openapi-fetch over the shipped wire types), and a host's own tests
      // with porter-runtime/testing (the scripted model is an AI SDK model).
      ['wire-client-types.ts', true],
      ['testing-types.ts', true],
      // A React host's chat page with porter-runtime/react: usePorterThread and PorterToolPart.
      ['react-host.tsx', true],
    ];
    const next = async (): Promise<void> => {
      const job = checks.shift();
      if (!job) return;
      await check(...job);
      await next();
    };
    await Promise.all([next(), next()]);
  });

  it('compiles every TypeScript block of README.md and docs/ as written, against the installed package (strict, exactOptionalPropertyTypes)', async () => {
    const into = join(host, 'docs-blocks');
    const blocks = documentationPages(ROOT).flatMap((page) => typeScriptBlocks(ROOT, page));
    expect(blocks.length, 'the documentation has TypeScript blocks').to.be.greaterThan(10);
    const written = writeBlocks(into, blocks);
    const compilerOptions = {
      target: 'ES2023',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      jsx: 'react-jsx',
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
    };
    writeFileSync(join(into, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['**/*.ts', '**/*.tsx'] }));
    const ran = await run(join(host, 'node_modules', '.bin', 'tsc'), ['-p', '.', '--pretty', 'false'], into);
    const failures = diagnosticsByPage(ran.output, into, written);
    expect(failures, 'blocks that do not compile').to.deep.equal([]);
    expect(ran.code, ran.output.slice(-4000)).to.equal(0);
  });

  it('compiles the example hosts (strict, exactOptionalPropertyTypes) and runs the installed command', async () => {
    await succeed(join(host, 'node_modules', '.bin', 'tsc'), ['-p', '.'], host);
    const built = readdirSync(join(host, 'dist'));
    expect(built).to.include.members(['koa.js', 'express.js', 'node-http.js', 'hono.js']);
    expect((await succeed(join(host, 'node_modules', '.bin', 'porter'), ['--version'], host)).trim()).to.equal(MANIFEST.version);
  });

  it('porter serve runs the development host from the installed package: the wire, and the chrome as prebuilt static files', async () => {
    const { child, match } = await start(
      join(host, 'node_modules', '.bin', 'porter'),
      ['serve', '--port', '0', '--database', 'sqlite::memory:'],
      host,
      { NODE_ENV: 'development', PORTER_SECRET: 'a-secret-for-the-packaged-examples-0123456789' },
      /listening on (http:\/\/127\.0\.0\.1:\d+)/,
    );
    try {
      const base = match[1]!;
      expect((await fetch(`${base}/api/porter/status`)).status).to.equal(200);
      const page = await (await fetch(`${base}/`)).text();
      const script = /src="(\/assets\/chrome\.[0-9a-f]{12}\.js)"/.exec(page)?.[1];
      expect(script, 'the page names the prebuilt bundle').to.be.a('string');
      const asset = await fetch(`${base}${script}`, { headers: { 'accept-encoding': 'br' } });
      expect(asset.status).to.equal(200);
      expect(asset.headers.get('content-encoding')).to.equal('br');
      expect((await asset.text()).length).to.be.greaterThan(100_000);
    } finally {
      await stop(child);
    }
  });

  it('boots without the optional packages it does not use, and names the one a configuration needs', async () => {
    // The host installed porter-runtime (and the OpenAI-compatible provider), none of the other optional peers.
    const probe = `
      import { createPorter, PorterConfigError } from 'porter-runtime';
      const base = { secret: 's'.repeat(40), logger: 'silent', databaseUrl: 'memory:' };
      const cases = {
        e2b: { sandbox: { kind: 'e2b', apiKey: 'e2b_key' } },
        nango: { connections: { nango: { secretKey: 'nango-key' } } },
        pgBoss: { scheduler: 'pg-boss', databaseUrl: 'postgres://127.0.0.1:1/porter' },
        postgres: { databaseUrl: 'postgres://127.0.0.1:1/porter' },
        authjs: { actAs: (await import('porter-runtime')).actAs.authjs({ secret: 'a'.repeat(32) }) },
      };
      const outcomes = {};
      for (const [name, options] of Object.entries(cases)) {
        try {
          await (await createPorter({ ...base, ...options }, {})).close();
          outcomes[name] = 'booted';
        } catch (error) {
          outcomes[name] = error instanceof PorterConfigError ? error.issues : String(error);
        }
      }
      const plain = await createPorter({ ...base, sandbox: false }, {});
      outcomes.plain = (await plain.fetch(new Request('http://host/api/porter/status'))).status;
      await plain.close();
      console.log(JSON.stringify(outcomes));
    `;
    writeFileSync(join(host, 'optional-probe.mjs'), probe);
    const outcomes = JSON.parse((await succeed(process.execPath, ['optional-probe.mjs'], host)).trim().split('\n').pop()!) as Record<
      string,
      unknown
    >;
    expect(outcomes.plain).to.equal(200);
    expect(outcomes.e2b).to.deep.equal([
      { option: 'sandbox', message: "needs the package e2b, which is not installed: npm install e2b@'^2.51.0'" },
    ]);
    expect(outcomes.nango).to.deep.equal([
      { option: 'connections', message: "needs the package @nangohq/node, which is not installed: npm install @nangohq/node@'^0.71.10'" },
    ]);
    expect(outcomes.pgBoss).to.deep.equal([
      { option: 'scheduler', message: "needs the package pg-boss, which is not installed: npm install pg-boss@'^12.38.0'" },
    ]);
    expect(outcomes.authjs).to.deep.equal([
      { option: 'actAs', message: "needs the package @auth/core, which is not installed: npm install @auth/core@'^0.41.0'" },
    ]);
    expect(outcomes.postgres).to.deep.equal([
      {
        option: 'databaseUrl',
        message: "needs the package @mikro-orm/postgresql, which is not installed: npm install @mikro-orm/postgresql@'6.6.16'",
      },
    ]);
  });

  for (const example of ['koa', 'express', 'node-http', 'hono']) {
    it(`the ${example} example: a turn, an approval, a signed webhook delivery and an app import`, async () => {
      const { child, match } = await start(
        process.execPath,
        [join('dist', `${example}.js`)],
        host,
        hostEnv(model, { PORT: '0' }),
        /host on (http:\/\/127\.0\.0\.1:\d+) \(Porter at (\/[^)]+)\)/,
      );
      try {
        await runHostScenario(`${match[1]}${match[2]}`, WEBHOOK_SECRET);
      } finally {
        await stop(child);
      }
    });
  }

  it('the Next.js App Router example (next build, next start): a turn, an approval, a signed webhook delivery and an app import', async () => {
    await succeed(join(host, 'node_modules', '.bin', 'next'), ['build', 'nextjs'], host, hostEnv(model));
    const port = await freePort();
    const { child } = await start(
      join(host, 'node_modules', '.bin', 'next'),
      ['start', 'nextjs', '-p', String(port), '-H', '127.0.0.1'],
      host,
      hostEnv(model),
      /Ready in/,
    );
    try {
      await runHostScenario(`http://127.0.0.1:${port}/api/porter`, WEBHOOK_SECRET);
    } finally {
      await stop(child);
    }
  });
});
