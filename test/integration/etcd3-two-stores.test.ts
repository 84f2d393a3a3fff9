// Two Capstan stores in two processes on one etcd, as two API servers would share it: each sees the
// other's writes through its watch, in revision order; both run the compactor on a short interval,
// and the compaction-key transaction lets only one of them compact per interval.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../../src/api/meta.js';
import { compactRevKey, startCompactor } from '../../src/storage/backends/etcd3/compactor.js';
import { Etcd3Backend } from '../../src/storage/backends/etcd3/etcd-backend.js';
import { keyBytes } from '../../src/storage/backends/etcd3/kv-convert.js';
import { int64ToNumber } from '../../src/storage/backends/etcd3/rpc-types.js';
import { requireEtcd, startEtcd } from '../../src/storage/backends/etcd3/testing/etcd-process.js';
import {
  peerPrefix,
  type PeerMessage,
} from '../../src/storage/backends/etcd3/testing/store-peer-protocol.js';
import { KvStore } from '../../src/storage/kv-store/kv-store.js';

const peerScript = fileURLToPath(
  new URL('../../src/storage/backends/etcd3/testing/store-peer.ts', import.meta.url),
);
const intervalMs = 250;
const perSide = 30;

interface Seen {
  readonly name: string;
  readonly rv: number;
}

class Peer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly events: Seen[] = [];
  readonly acked = new Map<string, number>();
  readonly compactions: { revision: number; at: number }[] = [];
  readonly errors: string[] = [];
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;

  constructor(endpoint: string, fromRv: number) {
    this.child = spawn(
      process.execPath,
      ['--import', 'tsx', peerScript, endpoint, String(fromRv), String(intervalMs)],
      { stdio: 'pipe' },
    );
    this.exited = new Promise((resolve) =>
      this.child.once('exit', () => {
        resolve();
      }),
    );
    let markReady!: () => void;
    this.ready = new Promise((resolve) => (markReady = resolve));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const msg = JSON.parse(line) as PeerMessage;
      if ('ready' in msg) markReady();
      else if ('event' in msg) this.events.push({ name: msg.event.name, rv: msg.event.rv });
      else if ('acked' in msg) this.acked.set(msg.acked.name, msg.acked.rv);
      else if ('compacted' in msg) this.compactions.push(msg.compacted);
      else this.errors.push(msg.error);
    });
  }

  send(cmd: { create: string } | { stop: true }): void {
    this.child.stdin.write(`${JSON.stringify(cmd)}\n`);
  }
}

async function waitUntil(what: string, cond: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

it(
  'two stores in two processes see each other through watches; one compacts',
  { timeout: 30_000 },
  async (t: TestContext) => {
    if (!requireEtcd(t)) return;
    const etcd = await startEtcd();
    const backend = new Etcd3Backend({ endpoints: etcd.endpoints });
    const store = new KvStore<KubeObject>({ backend, groupResource: { group: '', resource: 'configmaps' } });
    const mine: { revision: number; at: number }[] = [];
    const errors: string[] = [];
    let rounds = 0;
    let peer: Peer | undefined;
    let stopCompactor = (): Promise<void> => Promise.resolve();
    try {
      const fromRv = await store.currentResourceVersion();
      const seen: Seen[] = [];
      const watch = await store.watch(peerPrefix, { recursive: true, resourceVersion: String(fromRv) });
      void (async () => {
        for await (const ev of watch) {
          if (ev.type === 'ERROR') errors.push(ev.object.message ?? '');
          else
            seen.push({
              name: ev.object.metadata?.name ?? '',
              rv: Number(ev.object.metadata?.resourceVersion),
            });
        }
      })();
      peer = new Peer(etcd.endpoints[0] ?? '', fromRv);
      await peer.ready;
      const startedAt = Date.now();
      stopCompactor = startCompactor({
        backend,
        intervalMs,
        onStep: (step) => {
          rounds++;
          if (step.compacted > 0) mine.push({ revision: step.compacted, at: Date.now() });
        },
        onError: (err) => errors.push(err.message),
      });

      // Writes from both sides, interleaved, spread over several compaction intervals.
      const acked = new Map<string, number>();
      for (let i = 0; i < perSide; i++) {
        const obj = await store.create(`${peerPrefix}/here-${i}`, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `here-${i}`, namespace: 'peer' },
        });
        acked.set(`here-${i}`, Number(obj.metadata?.resourceVersion));
        peer.send({ create: `there-${i}` });
        await sleep(60);
      }
      await waitUntil('the peer to write', () => peer?.acked.size === perSide, 10_000);
      for (const [name, rv] of peer.acked) acked.set(name, rv);
      const all = [...acked].map(([name, rv]) => ({ name, rv })).sort((a, b) => a.rv - b.rv);
      await waitUntil(
        'both watches',
        () => seen.length >= all.length && (peer?.events.length ?? 0) >= all.length,
        10_000,
      );
      // Each process saw every write, its own and the other's, once, in revision order.
      assert.deepEqual(seen, all);
      assert.deepEqual(peer.events, all);

      await stopCompactor();
      const elapsed = Date.now() - startedAt;
      peer.send({ stop: true });
      await waitUntil('the peer to exit', () => peer?.child.exitCode !== null, 10_000);
      assert.deepEqual([...errors, ...peer.errors], []);

      // kube's compaction: one compaction per interval across both servers, never the same revision twice.
      const compactions = [...mine, ...peer.compactions].sort((a, b) => a.at - b.at);
      const revisions = compactions.map((c) => c.revision);
      const intervals = Math.floor(elapsed / intervalMs);
      assert.ok(compactions.length >= 3, `only ${compactions.length} compactions in ${intervals} intervals`);
      // Both ran a round every interval; uncoordinated they would compact about twice per interval.
      assert.ok(rounds >= 3, `this store's compactor ran ${rounds} rounds`);
      assert.ok(
        compactions.length <= intervals + 1,
        `${compactions.length} compactions in ${intervals} intervals`,
      );
      assert.deepEqual(
        revisions,
        [...new Set(revisions)].sort((a, b) => a - b),
        'revisions grow',
      );
      // compact_rev_key's version counts the successful transactions: each compaction plus the bootstrap.
      const res = await backend.etcdClient.call('range', { key: keyBytes(compactRevKey) });
      const version = int64ToNumber(res.kvs[0]?.version);
      assert.ok(version === compactions.length + 1, `version ${version}, compactions ${compactions.length}`);
      assert.equal(await backend.compactRevision(), Math.max(...revisions));
      t.diagnostic(
        `${intervals} intervals of ${intervalMs} ms: ${rounds} rounds and ${mine.length} compactions here, ` +
          `${peer.compactions.length} in the peer, compact_rev_key version ${version}`,
      );
      watch.stop();
    } finally {
      await stopCompactor();
      if (peer !== undefined && peer.child.exitCode === null) {
        peer.child.kill();
        await peer.exited;
      }
      await backend.close();
      await etcd.stop();
    }
  },
);
