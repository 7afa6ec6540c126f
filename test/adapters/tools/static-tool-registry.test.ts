import { expect } from 'chai';
import { z } from 'zod';
import { StaticToolRegistry } from '../../../adapters/tools/static-tool-registry.js';
import { defineTool } from '../../../application/tools/define-tool.js';
import type { InputCheck, ToolDefinition } from '../../../ports/tool-registry.js';

const known = new Set(['ord_1']);
const order = defineTool({
  name: 'orders_refund',
  description: 'Refund an order',
  input: z.strictObject({
    orderId: z
      .string()
      .regex(/^ord_\d+$/)
      .refine(async (id) => known.has(id), 'there is no such order'),
    amount: z.number().positive(),
    reason: z.string().trim().default('not given'),
  }),
  risk: 'write',
  execute: async (input) => input,
});

/** A schema whose check itself breaks (a refinement that throws). */
const fragile = defineTool({
  name: 'fragile',
  description: 'x',
  input: z.object({ q: z.string() }).superRefine(() => {
    throw new Error('lookup service down');
  }),
  risk: 'read',
  execute: async () => null,
});

function issues(check: InputCheck): string[] {
  if (check.ok) return expect.fail(`expected the input to be refused, it passed as ${JSON.stringify(check.value)}`);
  return [...check.issues];
}

describe('StaticToolRegistry: checking inputs', () => {
  const registry = new StaticToolRegistry([order, fragile]);
  const refund = registry.get('orders_refund')!;

  it('parses a good input with the tool schema: defaults and transforms applied', async () => {
    expect(await refund.checkInput({ orderId: 'ord_1', amount: 5, reason: '  late  ' })).to.deep.equal({
      ok: true,
      value: { orderId: 'ord_1', amount: 5, reason: 'late' },
    });
    expect(await refund.checkInput({ orderId: 'ord_1', amount: 5 })).to.deep.equal({
      ok: true,
      value: { orderId: 'ord_1', amount: 5, reason: 'not given' },
    });
  });

  it('words each issue with where it is: wrong types, missing fields, extra fields of a strict object', async () => {
    const wrong = issues(await refund.checkInput({ orderId: 'ord_1', amount: 'five' }));
    expect(wrong).to.have.length(1);
    expect(wrong[0]).to.match(/^\/amount .*expected number/);
    expect(issues(await refund.checkInput({ orderId: 'ord_1' }))[0]).to.match(/^\/amount /);
    expect(issues(await refund.checkInput({ orderId: 'ord_1', amount: 5, extra: true }))[0]).to.match(/^\(input\) .*extra/);
    expect(issues(await refund.checkInput('refund it'))[0]).to.match(/^\(input\) .*expected object/);
  });

  it('runs asynchronous refinements and refuses what they reject', async () => {
    expect(issues(await refund.checkInput({ orderId: 'ord_2', amount: 5 }))).to.deep.equal(['/orderId there is no such order']);
  });

  it('turns a schema that throws into an issue of the input instead of a rejection', async () => {
    expect(issues(await registry.get('fragile')!.checkInput({ q: 'x' }))).to.deep.equal([
      '(input) could not be checked: lookup service down',
    ]);
  });

  it('still checks a plain JSON Schema tool with Ajv, passing its input through as it is', async () => {
    const plain: ToolDefinition = {
      name: 'plain',
      description: 'x',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      risk: 'read',
      execute: async () => null,
    };
    const tool = new StaticToolRegistry([plain]).get('plain')!;
    const input = { n: 1, other: 'kept' };
    const passed = await tool.checkInput(input);
    expect(passed.ok && passed.value).to.equal(input);
    expect(issues(await tool.checkInput({ n: 'one' }))).to.deep.equal(['/n must be number']);
  });

  it('refuses at boot a tool name the model could not call, and two tools of one name', () => {
    expect(() => new StaticToolRegistry([{ ...order, name: 'no spaces allowed' }])).to.throw(
      /Tool name "no spaces allowed" must be a letter/,
    );
    expect(() => new StaticToolRegistry([order, order])).to.throw('Two tools are named "orders_refund"');
  });
});
