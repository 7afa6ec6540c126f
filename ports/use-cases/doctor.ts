import type { UseCase } from '../use-case.js';

export interface PresentCheck {
  readonly baseUrlSet: boolean;
  readonly reached: boolean;
  readonly authorization: boolean;
  readonly cookie: boolean;
}

export interface ActAsCheck {
  readonly configured: boolean;
  readonly minted: boolean;
  readonly accepted: boolean;
  readonly subjectMatches: boolean;
}

/** The doctor's checks. Every answer is booleans only: nothing secret can leak through them. */
export interface DoctorUseCases {
  readonly checkPresent: UseCase<{ cookie?: string; authorization?: string }, PresentCheck>;
  readonly checkActAs: UseCase<{ subject?: string }, ActAsCheck>;
}
