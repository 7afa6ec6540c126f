/** Time, passed in so the core never reads the wall clock itself. */
export interface Clock {
  now(): Date;
}
