/**
 * One family's part of adopting an anonymous session (threads, apps with their records and blobs,
 * session state). It must be idempotent: running it again after a partial failure moves the rest.
 */
export interface SessionAdopter {
  readonly family: string;
  adopt(fromSubject: string, toSubject: string): Promise<void>;
}
