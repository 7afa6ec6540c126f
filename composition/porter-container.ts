import type { Container } from 'inversify';
import type { Porter } from './create-porter.js';

/**
 * Each Porter's composition root, for Porter's own tools (`porter sync`) and the tests. Kept apart
 * from create-porter.ts so the public `Porter` type, and the declarations a host compiles against,
 * never name Inversify.
 */
const containers = new WeakMap<Porter, Container>();

/** @internal Remembers the container a Porter was composed from. */
export function rememberContainer(porter: Porter, container: Container): void {
  containers.set(porter, container);
}

/** @internal The composition root behind a Porter; resolve from it with `get(containerOf(porter), TOKENS.X)`. */
export function containerOf(porter: Porter): Container {
  const container = containers.get(porter);
  if (!container) throw new Error('not a Porter made by createPorter');
  return container;
}
