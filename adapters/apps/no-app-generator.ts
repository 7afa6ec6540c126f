import { NotImplemented } from '../../domain/errors.js';
import type { AppGenerator } from '../../ports/app-generator.js';

/** The app generator of a deployment without a model (the null object): creating or editing an app answers NotImplemented. */
export class NoAppGenerator implements AppGenerator {
  // eslint-disable-next-line require-yield
  async *create(): AsyncIterable<unknown> {
    throw new NotImplemented('No model is configured to generate apps');
  }

  // eslint-disable-next-line require-yield
  async *edit(): AsyncIterable<unknown> {
    throw new NotImplemented('No model is configured to generate apps');
  }
}
