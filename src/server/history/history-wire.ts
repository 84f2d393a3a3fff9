// The history read's answer: each revision with the field manager that wrote it and when, as far
// as managedFields tell (a store keeps no writer or time of its own): the entry that is new or
// changed since the revision before names the writer.
import type { KubeObject } from '../../api/meta.js';
import type { ObjectHistory } from '../../storage/interfaces.js';
import { testAPIVersion } from '../test-api/wire.js';

interface ManagedEntry {
  readonly manager?: string;
  readonly operation?: string;
  readonly subresource?: string;
  readonly time?: string;
}

export interface RevisionJson {
  readonly resourceVersion: string;
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly time?: string;
  readonly fieldManager?: string;
  readonly operation?: string;
  readonly object: KubeObject | null;
}

const entriesOf = (obj: KubeObject | null): ManagedEntry[] => obj?.metadata?.managedFields ?? [];

const identity = (e: ManagedEntry): string =>
  `${e.manager ?? ''}\u0000${e.operation ?? ''}\u0000${e.subresource ?? ''}`;

/** The entry that wrote `obj` after `prev`: new or changed, else the latest. */
export function writerOf(obj: KubeObject, prev: KubeObject | null): ManagedEntry | undefined {
  // The writer's entry is new or has a new time; an entry that only lost fields to it keeps its time.
  const before = new Map(entriesOf(prev).map((e) => [identity(e), e]));
  const entries = entriesOf(obj);
  const stamped = entries.filter((e) => before.get(identity(e))?.time !== e.time || !before.has(identity(e)));
  const changed = entries.filter((e) => JSON.stringify(before.get(identity(e))) !== JSON.stringify(e));
  const pool = stamped.length > 0 ? stamped : changed.length > 0 ? changed : entries;
  return pool.reduce<ManagedEntry | undefined>(
    (best, e) => (best === undefined || (e.time ?? '') > (best.time ?? '') ? e : best),
    undefined,
  );
}

function revisionJson(
  r: { revision: number; object: KubeObject | null },
  prev: KubeObject | null,
): RevisionJson {
  const resourceVersion = String(r.revision);
  if (r.object === null) return { resourceVersion, type: 'DELETED', object: null };
  const type = prev === null ? 'ADDED' : 'MODIFIED';
  const w = writerOf(r.object, prev);
  const time = w?.time ?? (type === 'ADDED' ? r.object.metadata?.creationTimestamp : undefined);
  return {
    resourceVersion,
    type,
    ...(time === undefined ? {} : { time }),
    ...(w?.manager === undefined ? {} : { fieldManager: w.manager }),
    ...(w?.operation === undefined ? {} : { operation: w.operation }),
    object: r.object,
  };
}

/** The answer of GET /capstan/v1/history/…: an ObjectHistory, oldest revision first. */
export function historyJson(h: ObjectHistory): Record<string, unknown> {
  let prev: KubeObject | null = null;
  const items: RevisionJson[] = [];
  for (const r of h.revisions) {
    items.push(revisionJson(r, prev));
    prev = r.object;
  }
  return {
    kind: 'ObjectHistory',
    apiVersion: testAPIVersion,
    metadata: { resourceVersion: String(h.revision) },
    compactedResourceVersion: String(h.compactRevision),
    items,
  };
}
