import { token } from '../tokens.js';
import type { AppBook } from '../../application/apps/app-book.js';
import type { AppGenerator } from '../../ports/app-generator.js';
import type { PinCatalog } from '../../ports/pin-catalog.js';
import type { AppsUseCases, AppActionUseCases } from '../../ports/use-cases/apps.js';

/** Apps: what apps-module.ts binds. */
export const APP_TOKENS = {
  AppBook: token<AppBook>('AppBook'),
  AppGenerator: token<AppGenerator>('AppGenerator'),
  PinCatalog: token<PinCatalog>('PinCatalog'),
  AppsUseCases: token<AppsUseCases>('AppsUseCases'),
  /** Apps running host tools through the guard (apart from AppsUseCases, which the guard's tools use). */
  AppActionUseCases: token<AppActionUseCases>('AppActionUseCases'),
};
