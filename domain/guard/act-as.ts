import { Forbidden } from '../errors.js';

export const ACT_AS_SUBJECT_MISMATCH = 'act-as-subject-mismatch';

/** The impersonation guard's refusal: a grant may only ever act as its own subject. */
export class ActAsSubjectMismatch extends Forbidden {
  constructor() {
    super('The grant for this call belongs to someone else; Porter will not act as them', { outcome: ACT_AS_SUBJECT_MISMATCH });
  }
}
