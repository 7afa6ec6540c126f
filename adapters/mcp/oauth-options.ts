import type { Principal } from '../../domain/principal.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { DoorOAuthUseCases } from '../../ports/use-cases/door.js';
import type { ConsentPageRenderer } from './consent-page.js';
import type { DoorBrand } from './door-page.js';
import type { WebExchange, WebHandler } from '../shared/web-handler.js';
import type { DoorUrls } from './door-urls.js';

/** What the door's authorization server endpoints are given; each endpoint takes the part it uses. */
export interface DoorOAuthEndpointsOptions {
  readonly oauth: DoorOAuthUseCases;
  /** The door's public URLs for a request from an origin (see `doorUrlsAt`). */
  readonly urlsAt: (origin: string) => DoorUrls;
  /** The person signed in with the host on this browser (the host's resolver), or null. */
  readonly signedIn: (exchange: WebExchange) => Promise<Principal | null>;
  /** Where to send a person who is not signed in; they come back to `returnTo` afterwards. */
  readonly signInUrl?: (returnTo: string) => string;
  readonly brand: DoorBrand;
  readonly consentPage: ConsentPageRenderer;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** The framework-free handler of one endpoint. */
export type OAuthEndpoint = WebHandler;
