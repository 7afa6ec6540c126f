import { Conflict, InvalidInput, NotFound } from '../errors.js';

/**
 * Where a thread went two ways: a turn replaced the messages after `after` (regenerate replaced
 * the answer, edit and resend replaced the person's message and what followed) and the messages it
 * replaced were kept as an earlier version. `after` is the id of the message before the fork, or
 * `''` when the fork is the thread's first message.
 *
 * `kept[i]` holds the ids of version `i`'s messages, in order, from the fork on; the shown
 * version's entry is empty (its messages are the thread's transcript from the fork on). A fork
 * inside a version that is not shown stays listed: it applies again once its version is shown.
 */
export interface VersionFork {
  readonly after: string;
  readonly shown: number;
  readonly kept: ReadonlyArray<ReadonlyArray<string>>;
}

/** What a client is told of a message that has versions: which one is shown (from 0) and how many there are. */
export interface MessageVersions {
  readonly messageId: string;
  readonly index: number;
  readonly count: number;
}

/** The switch between versions: the forks as they are after it, and the messages to put away and bring back. */
export interface VersionSwitch {
  readonly forks: ReadonlyArray<VersionFork>;
  /** The tail shown until now, put away as its version. */
  readonly shelved: ReadonlyArray<string>;
  /** The chosen version's messages, in order, which become the tail. */
  readonly restored: ReadonlyArray<string>;
}

export class NoVersions extends NotFound {
  constructor() {
    super('Versions of that message');
  }
}

export class NoSuchVersion extends InvalidInput {
  constructor(index: number, count: number) {
    super(`There is no version ${index}: that message has versions 0 to ${count - 1}`, [
      { path: 'index', message: `must be from 0 to ${count - 1}` },
    ]);
  }
}

/**
 * A turn replaced `replaced` (the ids of the messages after `after`): they are kept as the version
 * that was shown, and the turn's new messages become a new version, shown. Nothing replaced, nothing changes.
 */
export function keptAsVersion(
  forks: ReadonlyArray<VersionFork>,
  after: string,
  replaced: ReadonlyArray<string>,
): ReadonlyArray<VersionFork> {
  if (replaced.length === 0) return forks;
  const fork = forks.find((f) => f.after === after);
  if (!fork) return [...forks, { after, shown: 1, kept: [[...replaced], []] }];
  const kept = fork.kept.map((ids, i) => (i === fork.shown ? [...replaced] : ids));
  return forks.map((f) => (f === fork ? { after, shown: kept.length, kept: [...kept, []] } : f));
}

/**
 * The fork whose versions `messageId` is one of, read against the transcript as shown: the fork
 * after the message before it. `NoVersions` when the message is not shown or has no other version.
 */
export function forkOf(forks: ReadonlyArray<VersionFork>, shown: ReadonlyArray<{ readonly id: string }>, messageId: string): VersionFork {
  const at = shown.findIndex((m) => m.id === messageId);
  const after = at > 0 ? shown[at - 1]!.id : '';
  const fork = at < 0 ? undefined : forks.find((f) => f.after === after);
  if (!fork) throw new NoVersions();
  return fork;
}

/** Shows version `index` of `fork`, whose shown tail is `tail` (the ids of the transcript's messages from the fork on). */
export function switchedTo(
  forks: ReadonlyArray<VersionFork>,
  fork: VersionFork,
  index: number,
  tail: ReadonlyArray<string>,
): VersionSwitch {
  if (!Number.isInteger(index) || index < 0 || index >= fork.kept.length) throw new NoSuchVersion(index, fork.kept.length);
  if (index === fork.shown) return { forks, shelved: [], restored: [] };
  const restored = fork.kept[index]!;
  const kept = fork.kept.map((ids, i) => (i === fork.shown ? [...tail] : i === index ? [] : ids));
  return { forks: forks.map((f) => (f === fork ? { after: f.after, shown: index, kept } : f)), shelved: [...tail], restored };
}

/** For each shown message that begins a fork's shown version: which version it is and how many there are. */
export function versionsShown(forks: ReadonlyArray<VersionFork>, shown: ReadonlyArray<{ readonly id: string }>): MessageVersions[] {
  const found: MessageVersions[] = [];
  shown.forEach((message, at) => {
    const after = at > 0 ? shown[at - 1]!.id : '';
    const fork = forks.find((f) => f.after === after);
    if (fork) found.push({ messageId: message.id, index: fork.shown, count: fork.kept.length });
  });
  return found;
}

export class TurnInFlight extends Conflict {
  constructor() {
    super('A turn is in flight on this thread: switch versions once it has ended');
  }
}

/** Where `fork`'s versions begin in the transcript shown: just after the message it forks after. */
export function forkStart(fork: VersionFork, shown: ReadonlyArray<{ readonly id: string }>): number {
  return fork.after === '' ? 0 : shown.findIndex((m) => m.id === fork.after) + 1;
}
