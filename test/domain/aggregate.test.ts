import { expect } from 'chai';
import { aggregateOf } from '../../domain/aggregate.js';

interface TicketPrimitives {
  readonly id: string;
  readonly seat: string;
  readonly used: boolean;
}

class Ticket extends aggregateOf<TicketPrimitives>().reading('id', 'seat') {
  private constructor(props: TicketPrimitives) {
    super(props);
  }

  static fromPrimitives(props: TicketPrimitives): Ticket {
    return new Ticket(props);
  }

  get used(): boolean {
    return this.props.used;
  }

  use(): Ticket {
    return this.with({ used: true });
  }
}

describe('aggregateOf: an aggregate over its primitives', () => {
  const stored: TicketPrimitives = { id: 'tkt_1', seat: '12A', used: false };

  it('reads the named fields as stored, and none can be assigned', () => {
    const ticket = Ticket.fromPrimitives(stored);
    expect([ticket.id, ticket.seat, ticket.used]).to.deep.equal(['tkt_1', '12A', false]);
    expect(() => Object.assign(ticket, { id: 'tkt_2' })).to.throw(TypeError);
    expect(ticket.id).to.equal('tkt_1');
  });

  it('hands back its primitives unchanged, and keeps them as its only state', () => {
    const ticket = Ticket.fromPrimitives(stored);
    expect(ticket.toPrimitives()).to.equal(stored);
    expect(Object.keys(ticket)).to.deep.equal(['props']);
  });

  it('makes a change as a new aggregate of the same kind, leaving the old one as it was', () => {
    const ticket = Ticket.fromPrimitives(stored);
    const used = ticket.use();
    expect(used).to.be.an.instanceOf(Ticket);
    expect(used.toPrimitives()).to.deep.equal({ id: 'tkt_1', seat: '12A', used: true });
    expect(ticket.used).to.equal(false);
  });
});
