import { expect } from 'chai';
import { Connection, isToolkit } from '../../../domain/connections/connection.js';

const started = () =>
  Connection.initiate({
    id: 'con_0000000001',
    owner: 'ada',
    toolkit: 'github',
    broker: 'nango',
    brokerRef: null,
    callbackUrl: 'https://host.example/back',
    now: '2026-06-01T12:00:00.000Z',
    initiationExpiresAt: '2026-06-01T12:30:00.000Z',
  });

describe('Connection', () => {
  it('observe: follows the broker from initiated to active and learns its ref', () => {
    const active = started().observe({ status: 'active', brokerRef: 'nango-1' }, '2026-06-01T12:05:00.000Z');
    expect(active.toPrimitives()).to.deep.include({ status: 'active', brokerRef: 'nango-1', updatedAt: '2026-06-01T12:05:00.000Z' });
  });

  it('observe: a late "initiated" never undoes active, and failed/expired are final', () => {
    const active = started().observe({ status: 'active', brokerRef: 'r' }, '2026-06-01T12:05:00.000Z');
    expect(active.observe({ status: 'initiated', brokerRef: 'r' }, '2026-06-01T12:06:00.000Z')).to.equal(active);
    const failed = active.observe({ status: 'failed', brokerRef: 'r' }, '2026-06-01T12:07:00.000Z');
    expect(failed.status).to.equal('failed');
    expect(failed.observe({ status: 'active', brokerRef: 'r' }, '2026-06-01T12:08:00.000Z').status).to.equal('failed');
  });

  it('observe: an initiation past its deadline is expired; an active one is not affected by it', () => {
    expect(started().observe({ status: 'initiated', brokerRef: null }, '2026-06-01T12:29:59.999Z').status).to.equal('initiated');
    expect(started().observe({ status: 'initiated', brokerRef: null }, '2026-06-01T12:30:00.000Z').status).to.equal('expired');
    expect(started().observe({ status: 'active', brokerRef: 'r' }, '2026-06-01T13:00:00.000Z').status).to.equal('active');
  });

  it('observe: returns the same instance when nothing changed (no write needed)', () => {
    const connection = started();
    expect(connection.observe({ status: 'initiated', brokerRef: null }, '2026-06-01T12:01:00.000Z')).to.equal(connection);
  });

  it('accepts toolkit slugs only', () => {
    expect(isToolkit('github')).to.equal(true);
    expect(isToolkit('google-calendar')).to.equal(true);
    for (const bad of ['', 'GitHub', '../x', 'a b', '-x', 'x'.repeat(65)]) expect(isToolkit(bad), bad).to.equal(false);
    expect(() => Connection.initiate({ ...started().toPrimitives(), toolkit: 'Bad/Slug', now: 'x', initiationExpiresAt: 'y' })).to.throw();
  });
});
