import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../use-case.js';

export interface AdoptionRequest {
  /** The anonymous session's subject (`porter:anon:<id>`). */
  readonly from: string;
  readonly to: Principal;
}

/**
 * `adopted`: everything movable now belongs to `to` (also when it already did).
 * `refused`: the session was adopted by someone else before; nothing moved.
 * Either way the anonymous cookie is retired. A thrown error means "try again next request".
 */
export type AdoptionOutcome = 'adopted' | 'refused';

export interface IdentityUseCases {
  readonly adoptAnonymousSession: UseCase<AdoptionRequest, AdoptionOutcome>;
}
