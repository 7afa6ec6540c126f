import { Sandbox as E2bInstance, type ConnectionOpts } from 'e2b';
import { e2bCall } from './e2b-errors.js';

/** Metadata key that ties an e2b sandbox to its app, so any Porter instance finds the same one. */
export const APP_METADATA_KEY = 'porterAppId';

/**
 * Metadata key listing the sandboxes an app's current sandbox descends from, newest first. A
 * restore makes a new sandbox from a snapshot and kills the old one, but snapshots outlive their
 * sandbox and e2b finds them only by the sandbox they were taken from: this is how a later discard
 * still finds the ones the app took before its restores.
 */
export const LINEAGE_METADATA_KEY = 'porterLineage';

/** One e2b sandbox of an app and the ones it descends from. */
export interface Lineage {
  readonly sandboxId: string;
  readonly ancestors: ReadonlyArray<string>;
}

export function ancestorsIn(metadata: Readonly<Record<string, string>> | undefined): string[] {
  return (metadata?.[LINEAGE_METADATA_KEY] ?? '').split(' ').filter(Boolean);
}

/** The metadata of a sandbox made from a snapshot of `parent`. */
export function childMetadata(appId: string, parent: Lineage): Record<string, string> {
  return { [APP_METADATA_KEY]: appId, [LINEAGE_METADATA_KEY]: [parent.sandboxId, ...parent.ancestors].join(' ') };
}

/**
 * Removes everything an app holds on e2b: every live sandbox of it (running or paused, found by
 * its metadata) is killed, then every snapshot taken from any sandbox it ever had is deleted.
 * Killing comes first, since a snapshot may not be deletable while a sandbox made from it runs.
 */
export async function discardApp(appId: string, connection: ConnectionOpts, known: Lineage): Promise<void> {
  const live = [];
  const listing = E2bInstance.list({ ...connection, query: { metadata: { [APP_METADATA_KEY]: appId }, state: ['running', 'paused'] } });
  while (listing.hasNext) live.push(...(await e2bCall(() => listing.nextItems())));
  const lineages: Lineage[] = [
    known,
    ...live.map((sandbox) => ({ sandboxId: sandbox.sandboxId, ancestors: ancestorsIn(sandbox.metadata) })),
  ];
  for (const sandboxId of new Set(lineages.map((lineage) => lineage.sandboxId))) {
    await e2bCall(() => E2bInstance.kill(sandboxId, connection));
  }
  for (const sandboxId of new Set(lineages.flatMap((lineage) => [lineage.sandboxId, ...lineage.ancestors]))) {
    const snapshots = E2bInstance.listSnapshots({ ...connection, sandboxId });
    while (snapshots.hasNext) {
      for (const snapshot of await e2bCall(() => snapshots.nextItems())) {
        await e2bCall(() => E2bInstance.deleteSnapshot(snapshot.snapshotId, connection));
      }
    }
  }
}
