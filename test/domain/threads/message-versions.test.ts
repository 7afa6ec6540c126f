import { expect } from 'chai';
import {
  forkOf,
  forkStart,
  keptAsVersion,
  NoSuchVersion,
  NoVersions,
  switchedTo,
  versionsShown,
  type VersionFork,
} from '../../../domain/threads/message-versions.js';

const shown = (...ids: string[]) => ids.map((id) => ({ id }));

/** Switches the version of `messageId` in a transcript of ids, as ShowVersion does with the store. */
function show(forks: ReadonlyArray<VersionFork>, transcript: string[], messageId: string, index: number) {
  const fork = forkOf(forks, shown(...transcript), messageId);
  const start = forkStart(fork, shown(...transcript));
  const change = switchedTo(forks, fork, index, transcript.slice(start));
  return { forks: change.forks, transcript: [...transcript.slice(0, start), ...change.restored] };
}

describe('Message versions', () => {
  it('counts each regenerate as one more version of the answer, the newest shown', () => {
    let forks = keptAsVersion([], 'u1', ['a1']);
    forks = keptAsVersion(forks, 'u1', ['a2']);
    expect(versionsShown(forks, shown('u1', 'a3'))).to.deep.equal([{ messageId: 'a3', index: 2, count: 3 }]);
    expect(keptAsVersion(forks, 'u1', [])).to.equal(forks);
  });

  it('keeps a fork inside a version with it: hidden while another version shows, back as it was', () => {
    let forks = keptAsVersion([], 'u1', ['a1']);
    // The conversation went on in the second version, whose last answer was regenerated too.
    forks = keptAsVersion(forks, 'u2', ['a3']);
    let transcript = ['u1', 'a2', 'u2', 'a4'];
    expect(versionsShown(forks, shown(...transcript))).to.deep.equal([
      { messageId: 'a2', index: 1, count: 2 },
      { messageId: 'a4', index: 1, count: 2 },
    ]);

    ({ forks, transcript } = show(forks, transcript, 'a2', 0));
    expect(transcript).to.deep.equal(['u1', 'a1']);
    expect(versionsShown(forks, shown(...transcript))).to.deep.equal([{ messageId: 'a1', index: 0, count: 2 }]);

    ({ forks, transcript } = show(forks, transcript, 'a1', 1));
    expect(transcript).to.deep.equal(['u1', 'a2', 'u2', 'a4']);
    expect(show(forks, transcript, 'a4', 0).transcript).to.deep.equal(['u1', 'a2', 'u2', 'a3']);
  });

  it('forks at the very first message when the first message was edited', () => {
    const forks = keptAsVersion([], '', ['u1', 'a1']);
    expect(versionsShown(forks, shown('u2', 'a2'))).to.deep.equal([{ messageId: 'u2', index: 1, count: 2 }]);
    expect(show(forks, ['u2', 'a2'], 'u2', 0).transcript).to.deep.equal(['u1', 'a1']);
  });

  it('refuses a message with no other version, and a version that is not there', () => {
    const forks = keptAsVersion([], 'u1', ['a1']);
    expect(() => forkOf(forks, shown('u1', 'a2'), 'u1')).to.throw(NoVersions);
    expect(() => forkOf(forks, shown('u1', 'a2'), 'elsewhere')).to.throw(NoVersions);
    const fork = forkOf(forks, shown('u1', 'a2'), 'a2');
    expect(() => switchedTo(forks, fork, 2, ['a2'])).to.throw(NoSuchVersion);
    expect(() => switchedTo(forks, fork, -1, ['a2'])).to.throw(NoSuchVersion);
    expect(switchedTo(forks, fork, 1, ['a2'])).to.deep.equal({ forks, shelved: [], restored: [] });
  });
});
