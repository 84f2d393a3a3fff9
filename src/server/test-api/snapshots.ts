// Snapshots of a server's stored state for tests: a snapshot copies every key and its stored bytes
// (encrypted ones as they are) from each backend, and an embedded backend's whole database image;
// restore writes the difference back as ordinary creates, updates and deletes, so watchers get the
// events and the watch caches follow, and resourceVersions only move forward. A fork is a new server
// that opens the image (same revisions, nothing to replay), or, on etcd, is seeded with the copy.
import type { Backend, KeyRange, KeyValue } from '../../storage/kv/backend.js';

/** Every key Capstan stores starts with `/` (the --etcd-prefix); '0' is the byte after it. */
export const everything: KeyRange = { start: '/', end: '0' };

/** One copy per backend, in the order the backends were opened. */
export interface SnapshotData {
  readonly stores: readonly ReadonlyMap<string, Buffer>[];
  /** Each backend's database image; undefined for a backend that has none (etcd). */
  readonly images: readonly (Buffer | undefined)[];
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

export class Snapshots {
  readonly #backends: () => Promise<readonly Backend[]>;
  readonly #now: () => number;
  readonly #taken = new Map<string, { data: SnapshotData; info: SnapshotInfo }>();
  #next = 1;

  constructor(backends: () => Promise<readonly Backend[]>, now: () => number = Date.now) {
    this.#backends = backends;
    this.#now = now;
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
    const stores = await Promise.all(
      backends.map(async (b) => {
        const { kvs } = await b.list(everything);
        return new Map(kvs.map((kv) => [kv.key, kv.value]));
      }),
    );
    const data: SnapshotData = { stores, images };
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
