// Snapshots of a server's stored state for tests: a snapshot copies every key and its stored bytes
// (encrypted ones as they are) from each backend, and an embedded backend's whole database image;
// restore writes the difference back as ordinary creates, updates and deletes, so watchers get the
// events and the watch caches follow, and resourceVersions only move forward. A fork is a new server
// that opens the image (same revisions, nothing to replay), or, on etcd, is seeded with the copy.
// With the image, a snapshot keeps what the watch caches held when it was taken: a fork's caches
// start from that instead of listing and decoding every object again (see CacheSeeds).
import { advanceUnchanged, type CacheSeed, type CacheSeeds } from '../../storage/cacher/cache-seeds.js';
import type { Backend, KeyRange, KeyValue } from '../../storage/kv/backend.js';

/** Every key Capstan stores starts with `/` (the --etcd-prefix); '0' is the byte after it. */
export const everything: KeyRange = { start: '/', end: '0' };

/** One copy per backend, in the order the backends were opened. */
export interface SnapshotData {
  readonly stores: readonly ReadonlyMap<string, Buffer>[];
  /** Each backend's database image; undefined for a backend that has none (etcd). */
  readonly images: readonly (Buffer | undefined)[];
  /** The watch caches' content at the images (by cache name); empty without a single image. */
  readonly caches: ReadonlyMap<string, CacheSeed>;
}

/** Rounds of writes a restore makes before it gives up on keys that keep changing under it. */
const maxRounds = 5;

/** What a snapshot's listing says of it. */
export interface SnapshotInfo {
  readonly name: string;
  /** The server's clock when it was taken, in milliseconds since the epoch. */
  readonly takenAt: number;
  /** Keys copied, over every backend. */
  readonly keys: number;
}

export interface SnapshotsInit {
  readonly backends: () => Promise<readonly Backend[]>;
  /** The server's clock (default: the system's). */
  readonly now?: () => number;
  /** The server's watch caches, whose content a snapshot keeps for forks. */
  readonly caches?: CacheSeeds;
}

export class Snapshots {
  readonly #backends: () => Promise<readonly Backend[]>;
  readonly #now: () => number;
  readonly #caches: CacheSeeds | undefined;
  readonly #taken = new Map<string, { data: SnapshotData; info: SnapshotInfo }>();
  #next = 1;

  constructor(init: SnapshotsInit) {
    this.#backends = init.backends;
    this.#now = init.now ?? Date.now;
    this.#caches = init.caches;
  }

  /** The snapshots taken, oldest first. */
  list(): SnapshotInfo[] {
    return [...this.#taken.values()].map((t) => t.info);
  }

  has(id: string): boolean {
    return this.#taken.has(id);
  }

  async snapshot(): Promise<string> {
    const backends = await this.#backends();
    // The images first, in this synchronous step; an embedded backend's list below reads the same
    // committed state (its reads are synchronous too, and a commit needs a turn of the event loop).
    const images = backends.map((b) => b.serialize?.());
    // The caches in the same step: none has seen a change the images do not hold.
    const caches =
      this.#caches !== undefined && singleImage(images)
        ? this.#caches.capture()
        : new Map<string, CacheSeed>();
    const lists = await Promise.all(backends.map((b) => b.list(everything)));
    const stores = lists.map(({ kvs }) => new Map(kvs.map((kv) => [kv.key, kv.value])));
    const [list] = lists;
    if (list !== undefined && caches.size > 0) advanceUnchanged(caches, list);
    await dropCompacted(caches, backends);
    const data: SnapshotData = { stores, images, caches };
    const id = `snapshot-${this.#next++}`;
    const keys = stores.reduce((n, m) => n + m.size, 0);
    this.#taken.set(id, { data, info: { name: id, takenAt: this.#now(), keys } });
    return id;
  }

  /** The copy a snapshot holds; throws for an id this server did not give. */
  data(id: string): SnapshotData {
    const taken = this.#taken.get(id);
    if (taken === undefined) throw new NoSnapshotError(id);
    return taken.data;
  }

  async restore(id: string): Promise<void> {
    await this.load(this.data(id));
  }

  /** Makes the stored state equal to `data`. */
  async load(data: SnapshotData): Promise<void> {
    const backends = await this.#backends();
    const { stores } = data;
    if (backends.length !== stores.length)
      throw new Error(`the snapshot holds ${stores.length} backends, the server has ${backends.length}`);
    await Promise.all(backends.map((b, i) => converge(b, stores[i] ?? new Map())));
  }
}

export class NoSnapshotError extends Error {
  readonly id: string;

  constructor(id: string) {
    super(`no snapshot ${JSON.stringify(id)} on this server`);
    this.id = id;
    this.name = 'NoSnapshotError';
  }
}

function singleImage(images: readonly (Buffer | undefined)[]): boolean {
  return images.length === 1 && images[0] !== undefined;
}

/**
 * A fork's cache watches from its seed's revision: a seed from before the compacted revision could
 * not catch up (the watch would fail and the cache list after a backoff), so it is not kept.
 */
async function dropCompacted(caches: Map<string, CacheSeed>, backends: readonly Backend[]): Promise<void> {
  if (caches.size === 0) return;
  let compacted = 0;
  for (const b of backends) compacted = Math.max(compacted, await b.compactRevision());
  for (const [name, seed] of caches) if (seed.resourceVersion < compacted) caches.delete(name);
}

async function converge(backend: Backend, want: ReadonlyMap<string, Buffer>): Promise<void> {
  for (let round = 0; round < maxRounds; round++) {
    const { kvs } = await backend.list(everything);
    const results = await Promise.all(writesToward(backend, kvs, want));
    if (results.every((ok) => ok)) return;
  }
  throw new Error('restore: keys kept changing while the snapshot was written back');
}

function writesToward(
  backend: Backend,
  kvs: readonly KeyValue[],
  want: ReadonlyMap<string, Buffer>,
): Promise<boolean>[] {
  const writes: Promise<boolean>[] = [];
  const have = new Set<string>();
  for (const kv of kvs) {
    have.add(kv.key);
    const value = want.get(kv.key);
    if (value === undefined)
      writes.push(backend.delete(kv.key, { modRevision: kv.modRevision }).then((r) => r.ok));
    else if (!value.equals(kv.value))
      writes.push(backend.update(kv.key, value, { modRevision: kv.modRevision }).then((r) => r.ok));
  }
  for (const [key, value] of want)
    if (!have.has(key)) writes.push(backend.create(key, value).then((r) => r.ok));
  return writes;
}
