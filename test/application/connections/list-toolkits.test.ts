import { expect } from 'chai';
import { ListToolkits } from '../../../application/connections/list-toolkits.js';
import { NoConnectionBroker } from '../../../adapters/connections/no-connection-broker.js';
import { ConnectionsNotConfigured } from '../../../domain/connections/errors.js';
import { ScriptedBroker } from '../../support/scripted-broker.js';
import { rejection } from '../../support/outcomes.js';
import { ada } from './connections-harness.js';

describe('Listing the toolkits a person can connect', () => {
  it('answers what the broker offers, by name, in the order a person reads a list', async () => {
    const broker = new ScriptedBroker();
    broker.offered = [
      { toolkit: 'slack', name: 'Slack' },
      { toolkit: 'github', name: 'GitHub' },
      { toolkit: 'google-calendar', name: 'Google Calendar' },
    ];
    expect(await new ListToolkits(broker).execute({ principal: ada })).to.deep.equal({
      toolkits: [
        { toolkit: 'github', name: 'GitHub' },
        { toolkit: 'google-calendar', name: 'Google Calendar' },
        { toolkit: 'slack', name: 'Slack' },
      ],
    });
  });

  it('without a broker, says none is configured (501), asking nothing', async () => {
    expect(await rejection(new ListToolkits(new NoConnectionBroker()).execute({ principal: ada }))).to.be.instanceOf(
      ConnectionsNotConfigured,
    );
  });
});
