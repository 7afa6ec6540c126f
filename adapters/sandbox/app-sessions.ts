/**
 * Each app's one session, from the moment it starts opening: a second open of the app shares the
 * first (after `reopen` brings it up to date), and an open that fails is forgotten so the next one
 * starts afresh.
 */
export class AppSessions<S> {
  private readonly byApp = new Map<string, Promise<S>>();

  async open(id: string, reopen: (session: S) => Promise<void>, create: () => Promise<S>): Promise<S> {
    const existing = this.byApp.get(id);
    if (existing) {
      const session = await existing;
      await reopen(session);
      return session;
    }
    const opening = create();
    this.byApp.set(id, opening);
    opening.catch(() => this.byApp.delete(id));
    return opening;
  }

  /** The app's session closed: its next open makes a new one. */
  forget(id: string): void {
    this.byApp.delete(id);
  }

  /** The sessions that did open (to close them all). */
  async opened(): Promise<S[]> {
    const settled = await Promise.allSettled([...this.byApp.values()]);
    return settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  }
}
