import { expect } from 'chai';
import { loadConfig, PorterConfigError } from '../../composition/config/load-config.js';
import type { PorterOptions } from '../../composition/config/config-schema.js';
import { z } from 'zod';
import { tool } from 'ai';
import { createPorter, defineTool } from '../../composition/index.js';

const SECRET = 'x'.repeat(40);

function failure(options: PorterOptions, env: NodeJS.ProcessEnv = {}): PorterConfigError {
  try {
    loadConfig(options, env);
  } catch (error) {
    expect(error).to.be.instanceOf(PorterConfigError);
    return error as PorterConfigError;
  }
  return expect.fail('expected the configuration to be refused');
}

describe('loadConfig', () => {
  it('fills defaults: mounted at /api/porter, apps and automations on, door closed, 32,000-character tool output cap', () => {
    const config = loadConfig({ secret: SECRET }, {});
    expect(config).to.deep.include({
      mount: '/api/porter',
      apps: true,
      automations: true,
      mcp: false,
      toolOutputCap: 32_000,
      development: false,
    });
    expect(config.databaseUrl).to.equal('sqlite:.porter/porter.db');
  });

  it('selects development from NODE_ENV=development unless the host says otherwise', () => {
    expect(loadConfig({}, { NODE_ENV: 'development' }).development).to.equal(true);
    expect(loadConfig({ development: false, secret: SECRET }, { NODE_ENV: 'development' }).development).to.equal(false);
    expect(loadConfig({ secret: SECRET }, { NODE_ENV: 'production' }).development).to.equal(false);
  });

  it('reads the environment for what the host left out, and lets host options win', () => {
    const env = {
      PORTER_DATABASE_URL: 'postgres://db/porter',
      PORTER_BASE_URL: 'https://app.example.com',
      PORTER_TICK_SECRET: 't'.repeat(20),
      PORTER_SECRET: SECRET,
    };
    const config = loadConfig({}, env);
    expect(config).to.deep.include({
      databaseUrl: 'postgres://db/porter',
      baseUrl: 'https://app.example.com',
      tickSecret: 't'.repeat(20),
      secret: SECRET,
    });
    expect(loadConfig({ databaseUrl: 'sqlite::memory:' }, env).databaseUrl).to.equal('sqlite::memory:');
  });

  it('names oauth when mcp is true without it', () => {
    const error = failure({ mcp: true, development: true });
    expect(error.issues.map((i) => i.option)).to.deep.equal(['oauth']);
    expect(error.message).to.contain('oauth').and.to.contain('mcp');
  });

  it('names mcp when oauth is given but the door is closed', () => {
    const error = failure({ oauth: { principal: () => null }, development: true });
    expect(error.issues.map((i) => i.option)).to.deep.equal(['mcp']);
  });

  it('requires a signing secret in production and says where to put it', () => {
    const error = failure({}, { NODE_ENV: 'production' });
    expect(error.issues.map((i) => i.option)).to.deep.equal(['secret']);
    expect(error.message).to.contain('PORTER_SECRET');
  });

  it('NODE_ENV=production needs a secret even when the host asks for the development composition', () => {
    const error = failure({ development: true }, { NODE_ENV: 'production' });
    expect(error.issues.map((i) => i.option)).to.deep.equal(['secret']);
    expect(error.message).to.contain('NODE_ENV=production').and.contain('PORTER_SECRET');
    expect(loadConfig({ development: true }, { NODE_ENV: 'production', PORTER_SECRET: SECRET }).development).to.equal(true);
    // An empty variable is no secret.
    expect(failure({}, { NODE_ENV: 'production', PORTER_SECRET: '' }).issues.map((i) => i.option)).to.deep.equal(['secret']);
  });

  it('refuses a database URL it does not understand, naming the variable but never echoing the value', () => {
    const error = failure({ development: true }, { PORTER_DATABASE_URL: 'mysql://root:hunter2@db/porter' });
    expect(error.issues.map((i) => i.option)).to.deep.equal(['databaseUrl (from PORTER_DATABASE_URL)']);
    expect(error.message).to.contain('sqlite:<file path>').and.not.contain('hunter2');
    // A host that passes its own store has no use for the URL.
    expect(() =>
      loadConfig({ development: true, store: { records: () => null, blobs: () => null } as never }, { PORTER_DATABASE_URL: 'mysql://db' }),
    ).to.not.throw();
  });

  it('names the environment variable an invalid value came from', () => {
    const error = failure({}, { PORTER_SECRET: 'short', NODE_ENV: 'production' });
    expect(error.message).to.contain('secret (from PORTER_SECRET)');
  });

  it('refuses an unknown option rather than ignoring a typo', () => {
    const error = failure({ development: true, histroyWindow: 10 } as PorterOptions);
    expect(error.message).to.contain('histroyWindow');
  });

  describe('an unknown option', () => {
    const issuesOf = (options: Record<string, unknown>) => failure({ development: true, ...options } as PorterOptions).issues;

    it('is named at its own path with the nearest known option: a typo, a wrong case, a missing letter', () => {
      expect(issuesOf({ maxStep: 3 })).to.deep.equal([{ option: 'maxStep', message: 'unknown option — did you mean `maxSteps`?' }]);
      expect(issuesOf({ MaxSteps: 3 })).to.deep.equal([{ option: 'MaxSteps', message: 'unknown option — did you mean `maxSteps`?' }]);
      expect(issuesOf({ histroyWindow: 10 })).to.deep.equal([
        { option: 'histroyWindow', message: 'unknown option — did you mean `historyWindow`?' },
      ]);
      expect(failure({ development: true, maxStep: 3 } as PorterOptions).message).to.contain(
        '  - maxStep: unknown option — did you mean `maxSteps`?',
      );
    });

    it('inside a nested option, suggests among that object’s own keys', () => {
      expect(issuesOf({ sandbox: { kind: 'local', contaiment: 'none' } })).to.deep.equal([
        { option: 'sandbox.contaiment', message: 'unknown option — did you mean `sandbox.containment`?' },
      ]);
      expect(issuesOf({ limits: { turn: { max: 5, windowSeconds: 60 } } })).to.deep.equal([
        { option: 'limits.turn', message: 'unknown option — did you mean `limits.turns`?' },
      ]);
      expect(issuesOf({ limits: { anonymousPerAddress: { tokns: { max: 5, windowSeconds: 60 } } } })).to.deep.equal([
        { option: 'limits.anonymousPerAddress.tokns', message: 'unknown option — did you mean `limits.anonymousPerAddress.tokens`?' },
      ]);
      expect(issuesOf({ connections: { nango: { secretKey: 'k', hots: 'https://nango.example.com' } } })).to.deep.equal([
        { option: 'connections.nango.hots', message: 'unknown option — did you mean `connections.nango.host`?' },
      ]);
      expect(issuesOf({ policy: [{ tol: 'notes_add', action: 'ask' }] })).to.deep.equal([
        { option: 'policy.0.tol', message: 'unknown option — did you mean `policy.0.tool`?' },
      ]);
      expect(issuesOf({ databaseTimeouts: { statementMS: 500 } })).to.deep.equal([
        { option: 'databaseTimeouts.statementMS', message: 'unknown option — did you mean `databaseTimeouts.statementMs`?' },
      ]);
      expect(issuesOf({ trustProxy: { hop: 2 } })).to.deep.equal([
        { option: 'trustProxy.hop', message: 'unknown option — did you mean `trustProxy.hops`?' },
      ]);
    });

    it('with nothing close: says so, listing a nested object’s keys, and names each unknown key apart', () => {
      expect(issuesOf({ colour: 'red', maxStep: 3 })).to.deep.equal([
        { option: 'colour', message: 'unknown option; docs/configuration.md lists every option' },
        { option: 'maxStep', message: 'unknown option — did you mean `maxSteps`?' },
      ]);
      expect(issuesOf({ limits: { seats: { max: 5, windowSeconds: 60 } } })).to.deep.equal([
        {
          option: 'limits.seats',
          message:
            'unknown option; `limits` takes turns, tokens, toolCalls, appGenerations, uploadBytes, runs, embeddingTokens, anonymousPerAddress',
        },
      ]);
    });

    it('fails createPorter the same way, before anything is opened', async () => {
      const error = await createPorter({ development: true, maxStep: 3 } as PorterOptions, {}).then(
        () => expect.fail('expected createPorter to refuse'),
        (refused: unknown) => refused,
      );
      expect(error).to.be.instanceOf(PorterConfigError);
      expect((error as PorterConfigError).issues).to.deep.equal([
        { option: 'maxStep', message: 'unknown option — did you mean `maxSteps`?' },
      ]);
    });
  });

  it('refuses out-of-range chat options, naming each', () => {
    const error = failure({ development: true, toolOutputCap: -1, historyWindow: 0, maxOutputTokens: 1.5 });
    expect(error.issues.map((i) => i.option).sort()).to.deep.equal(['historyWindow', 'maxOutputTokens', 'toolOutputCap']);
  });

  it('accepts toolOutputCap 0 (no cap)', () => {
    expect(loadConfig({ development: true, toolOutputCap: 0 }, {}).toolOutputCap).to.equal(0);
  });

  it('refuses a principal resolver that is not a function and a mount with a trailing slash', () => {
    const error = failure({ development: true, principal: 'me' as never, mount: '/api/porter/' });
    expect(error.issues.map((i) => i.option).sort()).to.deep.equal(['mount', 'principal']);
  });

  it('refuses a mount that is not one plain path: dot segments, empty segments, encoded or escaped characters, a query or fragment', () => {
    for (const mount of [
      '/api/../x',
      '/api/./x',
      '/..',
      '/.',
      '/api/..',
      '//x',
      '/api//x',
      '/api/%2e%2e/x',
      '/api/%2E%2E',
      '/api\\x',
      '\\api',
      '/api/porter/',
      '/',
      '',
      'api/porter',
      '/api?x=1',
      '/api#x',
      '/api porter',
    ]) {
      const error = failure({ development: true, mount });
      expect(
        error.issues.map((i) => i.option),
        mount,
      ).to.deep.equal(['mount']);
      expect(error.message, mount).to.contain('mount');
    }
    for (const mount of ['/api/porter', '/agent', '/a.b/c_d~e-f', '/v1.2/porter', '/...'])
      expect(loadConfig({ development: true, mount }, {}).mount).to.equal(mount);
  });

  describe('tools', () => {
    const notes = defineTool({
      name: 'notes_add',
      description: 'Add a note',
      input: z.strictObject({ text: z.string() }),
      risk: 'write',
      execute: async ({ text }) => text,
    });
    const weather = tool({ description: 'The weather', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => city });

    it('takes defineTool results, plain JSON Schema tools and AI SDK tools spread with a name and risk, in order', () => {
      const plain = { name: 'legacy', description: 'x', inputSchema: { type: 'object' }, risk: 'read' as const, execute: async () => null };
      const config = loadConfig({ development: true, tools: [notes, plain, { name: 'weather', risk: 'read', ...weather }] }, {});
      expect(config.tools.map((t) => [t.name, t.risk])).to.deep.equal([
        ['notes_add', 'write'],
        ['legacy', 'read'],
        ['weather', 'read'],
      ]);
      expect(config.tools[0]).to.equal(notes);
      expect(config.tools[2]!.inputSchema).to.deep.include({ type: 'object', required: ['city'] });
    });

    it('takes a record of AI SDK tools by name: without a risk a tool asks (write), never reads freely', () => {
      const config = loadConfig({ development: true, tools: { weather, lookup: { ...weather, risk: 'read' }, notes_add: notes } }, {});
      expect(config.tools.map((t) => [t.name, t.risk])).to.deep.equal([
        ['weather', 'write'],
        ['lookup', 'read'],
        ['notes_add', 'write'],
      ]);
    });

    it('refuses each wrong tool at its index or key, saying what is missing', () => {
      const error = failure({
        development: true,
        tools: [
          notes,
          { name: 'no_risk', description: 'x', input: z.object({}), execute: async () => null } as never,
          'notes_list' as never,
          { name: 'notes_add', description: 'again', inputSchema: { type: 'object' }, risk: 'read', execute: async () => null },
        ],
      });
      expect(error.issues).to.deep.equal([
        { option: 'tools.1', message: 'tool "no_risk": risk must be one of read, write, destructive' },
        {
          option: 'tools.2',
          message: 'must be a tool: defineTool({ name, description, input, risk, execute }), or an AI SDK tool(…) in a record',
        },
        { option: 'tools.3', message: 'another tool is already named "notes_add" (tools.0)' },
      ]);
      const keyed = failure({ development: true, tools: { forecast: notes, broken: { inputSchema: z.object({}) } as never } });
      expect(keyed.issues).to.deep.equal([
        { option: 'tools.forecast', message: 'is named "notes_add": a tool in the record takes its key as its name' },
        { option: 'tools.broken', message: 'tool "broken": execute(input, context) is required: Porter runs every tool itself' },
      ]);
      expect(failure({ development: true, tools: 'notes' as never }).issues.map((i) => i.option)).to.deep.equal(['tools']);
    });
  });
});
