import { expect } from 'chai';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isLegacyRequest,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { StatelessDoor } from '../../../adapters/mcp/stateless-door.js';
import type { DoorTransportUseCases } from '../../../ports/use-cases/door.js';

const envelope = (version: unknown) => ({
  [PROTOCOL_VERSION_META_KEY]: version,
  [CLIENT_INFO_META_KEY]: { name: 'c', version: '1' },
  [CLIENT_CAPABILITIES_META_KEY]: {},
});

const request = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 1, method, params });

/** Bodies and protocol headers of every kind the door meets, 2025-era and 2026-07-28. */
const CASES: ReadonlyArray<{ readonly name: string; readonly body: unknown; readonly header?: string }> = [
  { name: '2025 initialize', body: request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: {} }) },
  { name: '2025 tools/list with its header', body: request('tools/list'), header: '2025-11-25' },
  { name: '2025 notification', body: { jsonrpc: '2.0', method: 'notifications/initialized' }, header: '2025-06-18' },
  { name: 'claim-less server/discover', body: request('server/discover') },
  { name: '2026 tools/call', body: request('tools/call', { name: 't', _meta: envelope('2026-07-28') }), header: '2026-07-28' },
  { name: '2026 server/discover', body: request('server/discover', { _meta: envelope('2026-07-28') }), header: '2026-07-28' },
  { name: 'a revision from the future', body: request('tools/list', { _meta: envelope('2099-01-01') }), header: '2099-01-01' },
  { name: 'a claim that is not a string', body: request('tools/list', { _meta: envelope(7) }), header: '2026-07-28' },
  { name: 'a pre-2026 claim', body: request('tools/list', { _meta: envelope('2025-11-25') }), header: '2025-11-25' },
  { name: 'a modern header without a claim', body: request('tools/list'), header: '2026-07-28' },
  { name: 'a modern initialize', body: request('initialize', { _meta: envelope('2026-07-28') }), header: '2026-07-28' },
  { name: 'a 2026 claim under a 2025 header', body: request('tools/list', { _meta: envelope('2026-07-28') }), header: '2025-11-25' },
  { name: 'a batch', body: [request('tools/list'), request('ping')] },
  { name: 'a response', body: { jsonrpc: '2.0', id: 1, result: {} } },
];

describe('StatelessDoor: which requests take the 2026-07-28 path', () => {
  const door = new StatelessDoor({ name: 'porter', version: '0' }, {} as DoorTransportUseCases, 4_194_304, () => undefined);

  for (const { name, body, header } of CASES)
    it(`routes ${name} as the SDK's isLegacyRequest does`, async () => {
      const web = new Request('http://door.test/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(header ? { 'mcp-protocol-version': header } : {}) },
      });
      expect(await door.isModern(web, body)).to.equal(!(await isLegacyRequest(web, body)));
    });
});
