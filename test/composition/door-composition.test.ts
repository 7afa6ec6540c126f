import { expect } from 'chai';
import type { DoorSessionRegistry } from '../../ports/door-sessions.js';
import { createPorter } from '../../composition/create-porter.js';
import { loadConfig, type PorterConfigError } from '../../composition/config/load-config.js';
import { get, getAll, TOKENS } from '../../composition/tokens.js';
import { DOOR_TOKENS } from '../../composition/modules/door-tokens.js';
import { containerOf } from '../../composition/porter-container.js';
import { ORIGIN_ROOT_DOCUMENTS } from '../support/door-documents.js';

const base = { development: true, logger: 'silent' as const, databaseUrl: 'memory:' };

describe('The door composition', () => {
  it('is absent unless mcp is true', async () => {
    const porter = await createPorter(base, {});
    try {
      expect(containerOf(porter).isBound(DOOR_TOKENS.DoorContainer)).to.equal(false);
      expect(getAll(containerOf(porter), TOKENS.WireRoutes).some((r) => r.access === 'origin')).to.equal(false);
    } finally {
      await porter.close();
    }
  });

  it('runs the door in a child container of the root and hands the wire its two route groups', async () => {
    const porter = await createPorter({ ...base, mcp: true, oauth: { principal: (subject) => ({ subject, kind: 'user' }) } }, {});
    try {
      const door = get(containerOf(porter), DOOR_TOKENS.DoorContainer);
      expect(door).to.not.equal(containerOf(porter));
      expect(get(door, TOKENS.Store), 'shared services come from the root').to.equal(get(containerOf(porter), TOKENS.Store));
      expect(containerOf(porter).isBound(DOOR_TOKENS.DoorSessions), 'door services stay in the child').to.equal(false);
      const origin = getAll(containerOf(porter), TOKENS.WireRoutes).find((r) => r.access === 'origin');
      expect(origin?.originPaths).to.deep.equal(ORIGIN_ROOT_DOCUMENTS);
    } finally {
      await porter.close();
    }
  });

  it('closes every live door session when Porter closes', async () => {
    const porter = await createPorter({ ...base, mcp: true, oauth: { principal: () => null } }, {});
    const sessions: DoorSessionRegistry = get(get(containerOf(porter), DOOR_TOKENS.DoorContainer), DOOR_TOKENS.DoorSessions);
    const closed: string[] = [];
    await sessions.open(
      {
        id: 'ses_1',
        subject: 'ada',
        clientId: 'mcpc_1',
        initialize: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      },
      { id: 'ses_1', streaming: false, close: async () => void closed.push('ses_1') },
    );
    await porter.close();
    expect(closed).to.deep.equal(['ses_1']);
  });

  it('validates the oauth and remoteAs shapes, naming the option', () => {
    const issues = (options: Record<string, unknown>) => {
      try {
        loadConfig({ ...base, mcp: true, ...options }, {});
      } catch (error) {
        return (error as PorterConfigError).issues.map((i) => i.option);
      }
      return [];
    };
    expect(issues({ oauth: { principal: () => null, accessTokenTtlSeconds: 5 } })).to.deep.equal(['oauth.accessTokenTtlSeconds']);
    expect(issues({ oauth: { principal: () => null, brand: { name: 'Acme', logoUrl: 'javascript:x' } } })).to.deep.equal([
      'oauth.brand.logoUrl',
    ]);
    expect(issues({ oauth: { principal: () => null, bogus: true } })).to.deep.equal(['oauth.bogus']);
    const oauth = { principal: () => null };
    expect(issues({ oauth, remoteAs: { issuer: 'https://id.example', algorithms: ['HS256'] } })).to.deep.equal(['remoteAs.algorithms.0']);
    expect(
      issues({
        oauth,
        remoteAs: { issuer: 'https://id.example', jwksUri: 'https://id.example/jwks', audience: 'https://app.example/api/porter/mcp' },
      }),
    ).to.deep.equal([]);
    // The door asks oauth.principal on every request, so an external issuer alone is not enough.
    expect(issues({ remoteAs: { issuer: 'https://id.example' } })).to.deep.equal(['oauth']);
  });
});
