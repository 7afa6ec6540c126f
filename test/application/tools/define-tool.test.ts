import { expect } from 'chai';
import { z } from 'zod';
import { jsonSchema, tool, type ToolExecutionOptions } from 'ai';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { defineTool } from '../../../composition/index.js';
import type { ToolContext, ToolDefinition } from '../../../ports/tool-registry.js';
import { ada } from '../../support/guard-harness.js';

function context(overrides: Partial<ToolContext> = {}): ToolContext {
  const signal = new AbortController().signal;
  return {
    principal: ada,
    venue: 'chat',
    presence: 'present',
    toolCallId: 'call_1',
    session: 'thr_1',
    signal,
    abortSignal: signal,
    messages: [],
    context: undefined,
    hostFetch: () => Promise.reject(new Error('unused')),
    fetch: () => Promise.reject(new Error('unused')),
    ...overrides,
  };
}

function thrown(define: () => unknown): string {
  try {
    define();
  } catch (error) {
    return (error as Error).message;
  }
  return expect.fail('expected defineTool to refuse the definition');
}

/** A Standard Schema from no library at all: checks that the input has a string `q`. */
function bareSchema(jsonSchemaOf?: StandardJSONSchemaV1.Converter): StandardSchemaV1<unknown, { q: string }> {
  return {
    '~standard': {
      version: 1,
      vendor: 'bare',
      validate: (value) =>
        typeof value === 'object' && value !== null && typeof (value as { q?: unknown }).q === 'string'
          ? { value: { q: (value as { q: string }).q } }
          : { issues: [{ message: 'needs q', path: ['q'] }] },
      ...(jsonSchemaOf ? { jsonSchema: jsonSchemaOf } : {}),
    } as StandardSchemaV1.Props<unknown, { q: string }>,
  };
}

describe('defineTool', () => {
  describe('with a zod input', () => {
    const lookup = defineTool({
      name: 'orders_lookup',
      description: 'Find an order',
      input: z.strictObject({
        orderId: z
          .string()
          .regex(/^ord_[0-9]{1,12}$/)
          .describe('The order id'),
        note: z.string().min(1).max(200).optional(),
        limit: z.number().int().min(1).max(50).default(10),
      }),
      risk: 'read',
      preview: (input) => `Look up ${input.orderId} (${input.limit})`,
      async execute(input, context) {
        // Typed from the schema, no casts: these lines would not compile otherwise.
        const limit: number = input.limit;
        const id: string = input.orderId;
        return { id, limit, by: context.principal.subject };
      },
    });

    it('shows the model and the door the JSON Schema of what must be sent (patterns, lengths, required, no extra keys)', () => {
      expect(lookup.inputSchema).to.deep.include({ type: 'object', required: ['orderId'], additionalProperties: false });
      expect(lookup.inputSchema.properties).to.deep.equal({
        orderId: { type: 'string', pattern: '^ord_[0-9]{1,12}$', description: 'The order id' },
        note: { type: 'string', minLength: 1, maxLength: 200 },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      });
    });

    it('keeps the schema that checks and parses each input, and passes execute what it parsed', async () => {
      const checked = await lookup.input!['~standard'].validate({ orderId: 'ord_7' });
      expect(checked).to.deep.equal({ value: { orderId: 'ord_7', limit: 10 } });
      expect(await lookup.execute({ orderId: 'ord_7', limit: 10 }, context())).to.deep.equal({ id: 'ord_7', limit: 10, by: 'ada' });
      expect(lookup.preview!({ orderId: 'ord_7', limit: 3 })).to.equal('Look up ord_7 (3)');
    });

    it('describes the input side of a transform (what the model sends, not what execute gets)', () => {
      const parsed = defineTool({
        name: 'count_words',
        description: 'x',
        input: z.strictObject({ text: z.string().transform((text) => text.split(/\s+/)) }),
        risk: 'read',
        execute: async ({ text }) => text.length,
      });
      expect(parsed.inputSchema.properties).to.deep.equal({ text: { type: 'string' } });
    });

    it('uses an explicit inputSchema beside the schema when given', () => {
      const given = { type: 'object', properties: { q: { type: 'string', description: 'shown as is' } } };
      expect(
        defineTool({
          name: 'q',
          description: 'x',
          input: z.object({ q: z.string() }),
          inputSchema: given,
          risk: 'read',
          execute: async () => null,
        }).inputSchema,
      ).to.equal(given);
    });

    it('refuses a schema that is not an object of named arguments, or that JSON cannot carry', () => {
      expect(thrown(() => defineTool({ name: 'str', description: 'x', input: z.string(), risk: 'read', execute: async () => null })))
        .to.contain('tool "str"')
        .and.to.contain('object of named arguments');
      expect(
        thrown(() =>
          defineTool({ name: 'when', description: 'x', input: z.object({ at: z.date() }), risk: 'read', execute: async () => null }),
        ),
      )
        .to.contain('tool "when"')
        .and.to.contain('cannot be written as JSON Schema')
        .and.to.contain('inputSchema');
    });
  });

  describe('with another Standard Schema', () => {
    it("uses the schema's own Standard JSON Schema when it offers one", () => {
      const described = defineTool({
        name: 'bare',
        description: 'x',
        input: bareSchema({
          input: () => ({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }),
          output: () => ({}),
        }),
        risk: 'read',
        execute: async ({ q }) => q.toUpperCase(),
      });
      expect(described.inputSchema).to.deep.equal({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
    });

    it('needs an explicit inputSchema when the schema cannot describe itself, and says so', () => {
      const message = thrown(() =>
        defineTool({ name: 'bare', description: 'x', input: bareSchema(), risk: 'read', execute: async () => null }),
      );
      expect(message)
        .to.contain('tool "bare"')
        .and.to.contain('(bare) does not describe itself as JSON Schema')
        .and.to.contain('pass inputSchema');
      const given = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
      expect(
        defineTool({ name: 'bare', description: 'x', input: bareSchema(), inputSchema: given, risk: 'read', execute: async () => null })
          .inputSchema,
      ).to.equal(given);
    });
  });

  describe('with an AI SDK tool spread in', () => {
    const weather = tool({
      description: 'The weather in a city',
      inputSchema: z.object({ city: z.string().min(1), unit: z.enum(['C', 'F']).default('C') }),
      execute: async ({ city, unit }, options: ToolExecutionOptions<unknown>) => ({
        city,
        unit,
        call: options.toolCallId,
        live: options.abortSignal?.aborted === false,
        messages: options.messages.length,
      }),
    });

    it('type-checks and runs with the context as its ToolExecutionOptions', async () => {
      const defined: ToolDefinition<{ city: string; unit: 'C' | 'F' }> = defineTool({ name: 'weather', risk: 'read', ...weather });
      expect(defined.description).to.equal('The weather in a city');
      expect(defined.inputSchema.required).to.deep.equal(['city']);
      expect(await defined.execute({ city: 'Oslo', unit: 'C' }, context())).to.deep.equal({
        city: 'Oslo',
        unit: 'C',
        call: 'call_1',
        live: true,
        messages: 0,
      });
    });

    it("checks input with the SDK's jsonSchema() validate when there is one, keeping its issues", async () => {
      const validated = defineTool({
        name: 'search',
        risk: 'read',
        ...tool({
          description: 'x',
          inputSchema: jsonSchema<{ q: string }>(
            { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
            {
              validate: (value) =>
                typeof (value as { q?: unknown }).q === 'string'
                  ? { success: true, value: value as { q: string } }
                  : { success: false, error: new Error('q must be text') },
            },
          ),
          execute: async ({ q }) => q,
        }),
      });
      expect(validated.inputSchema).to.deep.equal({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
      expect(await validated.input!['~standard'].validate({ q: 1 })).to.deep.equal({ issues: [{ message: 'q must be text' }] });
      const unvalidated = defineTool({
        name: 'plain',
        risk: 'read',
        ...tool({ inputSchema: jsonSchema<{ q: string }>({ type: 'object' }), execute: async () => 1 }),
      });
      expect(unvalidated.input, 'checked as JSON Schema by the registry instead').to.equal(undefined);
      expect(unvalidated.description).to.equal('');
    });

    it('takes the last value of a tool that streams preliminary results', async () => {
      const streaming = defineTool({
        name: 'progress',
        risk: 'read',
        ...tool({
          description: 'x',
          inputSchema: z.object({}),
          async *execute() {
            yield { done: 1 };
            yield { done: 2 };
          },
        }),
      });
      expect(await streaming.execute({}, context())).to.deep.equal({ done: 2 });
    });

    it("refuses a tool that needs the SDK's toolsContext, or computes its description from it: Porter hands its own context", () => {
      expect(
        thrown(() =>
          defineTool({
            name: 'keyed',
            risk: 'read',
            ...tool({
              description: 'x',
              inputSchema: z.object({}),
              contextSchema: z.object({ apiKey: z.string() }),
              execute: async (_input, { context }) => context.apiKey,
            }),
          }),
        ),
      ).to.contain("contextSchema: Porter does not pass the AI SDK's toolsContext");
      expect(
        thrown(() =>
          defineTool({
            name: 'described',
            risk: 'read',
            ...tool({ description: () => 'computed', inputSchema: z.object({}), execute: async () => 1 }),
          }),
        ),
      ).to.contain('description must be a string');
    });

    it('refuses a read tool that the SDK marks as needing approval, a provider tool and one without execute', () => {
      expect(
        thrown(() =>
          defineTool({
            name: 'pay',
            risk: 'read',
            ...tool({ description: 'x', inputSchema: z.object({}), needsApproval: true, execute: async () => 1 }),
          }),
        ),
      ).to.contain("risk 'read' never asks");
      expect(
        defineTool({
          name: 'pay',
          risk: 'write',
          ...tool({ description: 'x', inputSchema: z.object({}), needsApproval: true, execute: async () => 1 }),
        }).risk,
      ).to.equal('write');
      const provider = { type: 'provider', id: 'openai.web_search', args: {}, inputSchema: z.object({}) } as const;
      expect(thrown(() => defineTool({ name: 'web_search', risk: 'read', ...provider } as never))).to.contain(
        'provider-defined tool runs at the model provider',
      );
      expect(
        thrown(() =>
          defineTool({
            name: 'client_side',
            risk: 'read',
            ...tool({ description: 'x', inputSchema: z.object({}), outputSchema: z.string() }),
          }),
        ),
      ).to.contain('execute(input, context) is required');
    });
  });

  it('keeps the plain JSON Schema form as it was: no parsing schema, checked by the registry', async () => {
    const plain = defineTool({
      name: 'legacy',
      description: 'x',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      risk: 'write',
      execute: async (input) => input,
    });
    expect(plain.input).to.equal(undefined);
    expect(plain.inputSchema).to.deep.equal({ type: 'object', properties: { n: { type: 'number' } } });
    expect(await plain.execute({ n: 1 }, context())).to.deep.equal({ n: 1 });
  });

  it('returns a defined tool as it is when defined again, and takes a copy of one as well', () => {
    const once = defineTool({
      name: 'once',
      description: 'x',
      input: z.strictObject({ q: z.string() }),
      risk: 'read',
      execute: async () => null,
    });
    expect(defineTool(once)).to.equal(once);
    expect(defineTool({ ...once, name: 'copy' }).inputSchema).to.deep.equal(once.inputSchema);
  });

  it('names the tool and what is wrong with it', () => {
    const base = { description: 'x', input: z.object({}), risk: 'read', execute: async () => null } as const;
    expect(thrown(() => defineTool({ ...base, name: 'has space' }))).to.contain('name must be a letter, then up to 63 letters');
    expect(thrown(() => defineTool({ ...base, name: 'ok', risk: 'maybe' as never }))).to.equal(
      'tool "ok": risk must be one of read, write, destructive',
    );
    expect(thrown(() => defineTool({ ...base, name: 'ok', execute: undefined as never }))).to.contain(
      'tool "ok": execute(input, context) is required',
    );
    expect(thrown(() => defineTool({ ...base, name: 'ok', description: 3 as never }))).to.contain(
      'tool "ok": description must be a string',
    );
    expect(thrown(() => defineTool({ ...base, name: 'ok', input: { parse: () => 1 } as never }))).to.contain(
      'tool "ok": input must be a zod 4 schema or another Standard Schema',
    );
    expect(thrown(() => defineTool({ name: 'ok', description: 'x', risk: 'read', execute: async () => null } as never))).to.contain(
      'needs input (a zod or Standard Schema) or inputSchema',
    );
  });

  it('keeps readOnly, and refuses readOnly: true on a tool that writes', () => {
    const base = { description: 'x', input: z.strictObject({}), execute: async () => null };
    expect(defineTool({ ...base, name: 'creates', risk: 'read', readOnly: false }).readOnly).to.equal(false);
    expect(defineTool({ ...base, name: 'reads', risk: 'read' })).to.not.have.property('readOnly');
    expect(() => defineTool({ ...base, name: 'writes', risk: 'write', readOnly: true })).to.throw(
      "readOnly: true says it changes nothing, but its risk is 'write'",
    );
    expect(() => defineTool({ ...base, name: 'odd', risk: 'read', readOnly: 'yes' } as never)).to.throw('readOnly must be true or false');
  });

  it('keeps idempotent (whether an interrupted run may run it again), and refuses anything but a boolean', () => {
    const base = { description: 'x', input: z.strictObject({}), execute: async () => null };
    expect(defineTool({ ...base, name: 'upserts', risk: 'write', idempotent: true }).idempotent).to.equal(true);
    expect(defineTool({ ...base, name: 'sends', risk: 'write' })).to.not.have.property('idempotent');
    expect(() => defineTool({ ...base, name: 'odd', risk: 'write', idempotent: 'yes' } as never)).to.throw(
      'idempotent must be true or false',
    );
  });
});
