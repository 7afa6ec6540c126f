import type { Porter } from '../create-porter.js';

/** The development host's one document, so `/knowledge <words>` has something to answer from. */
export const DEMO_DOCUMENT_TITLE = 'Acme Travel handbook (demo)';

const DEMO_HANDBOOK = `# Acme Travel handbook

## Refunds

A trip cancelled at least 14 days before departure is refunded in full, to the card it was paid with, within 5 working days. A trip cancelled later is refunded at half its price, unless the traveller holds cancellation cover.

Refunds for flights the airline cancelled are always in full, whenever they are asked for.

## Baggage

Every booking includes one cabin bag of up to 8 kg. A checked bag of up to 23 kg can be added until 24 hours before departure, for 35 euros each way.

## Support hours

The support desk answers by chat every day from 8:00 to 20:00 Central European Time, and by phone on weekdays from 9:00 to 17:00.
`;

/**
 * Adds the demo handbook once (a SQLite file keeps it across restarts): a development host shows
 * knowledge with citations without anyone adding a document first. A failure is said, not fatal.
 */
export async function addDemoKnowledge(porter: Porter): Promise<void> {
  try {
    const { documents } = await porter.knowledge.list({ limit: 100 });
    if (documents.some((document) => document.title === DEMO_DOCUMENT_TITLE)) return;
    await porter.knowledge.add({ title: DEMO_DOCUMENT_TITLE, format: 'markdown', content: DEMO_HANDBOOK });
  } catch (error) {
    console.warn(`The demo handbook could not be added: ${error instanceof Error ? error.message : String(error)}`);
  }
}
