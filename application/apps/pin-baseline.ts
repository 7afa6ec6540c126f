import type { AppDocument } from '../../domain/apps/app-document.js';
import { InvalidAppDocument } from '../../domain/apps/app-errors.js';
import { validateDocument } from '../../domain/apps/validate-document.js';
import { NotFound } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Ids } from '../../ports/ids.js';
import type { PinBaseline, PinCatalog } from '../../ports/pin-catalog.js';
import type { AppBook } from './app-book.js';
import type { Generation } from './generation.js';

/** What the use cases that make a fork from the host's catalog (seed, rebase) are built from alike. */
export interface ForkingDeps {
  readonly book: AppBook;
  readonly catalog: PinCatalog;
  readonly generation: Generation;
  readonly ids: Ids;
  readonly clock: Clock;
}

/** The slot's baseline as the host has it now, checked; not-found for a slot the host never declared. */
export async function baselineOf(catalog: PinCatalog, slot: string): Promise<{ baseline: PinBaseline; document: AppDocument }> {
  const baseline = await catalog.baseline(slot);
  if (!baseline) throw new NotFound('Pin slot');
  const checked = validateDocument(baseline.document);
  if (!checked.ok) throw new InvalidAppDocument(`host component of slot "${slot}"`, checked.issues);
  return { baseline, document: { ...checked.document, ui: 'tree' } };
}
