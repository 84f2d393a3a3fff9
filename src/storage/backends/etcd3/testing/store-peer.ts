// A second Capstan store in its own process, for tests of two API servers sharing one etcd: run as
// `node --import tsx store-peer.ts <endpoint> <watch-from-rv> <compaction-interval-ms>`. It watches
// `/configmaps/peer/` through KvStore, runs the compactor, and speaks JSON lines: on stdin
// `{"create":"name"}` or `{"stop":true}`; on stdout what it saw (store-peer-protocol.ts).
import { createInterface } from 'node:readline';
import type { KubeObject } from '../../../../api/meta.js';
import { KvStore } from '../../../kv-store/kv-store.js';
import { startCompactor } from '../compactor.js';
import { Etcd3Backend } from '../etcd-backend.js';
import { peerPrefix, type PeerMessage } from './store-peer-protocol.js';

function send(msg: PeerMessage): void {
  process.stdout.write(`${JSON.stringify(msg)}\n`);
}

async function main(): Promise<void> {
  const [endpoint = '', fromRv = '0', intervalMs = '0'] = process.argv.slice(2);
  const backend = new Etcd3Backend({ endpoints: [endpoint] });
  const store = new KvStore<KubeObject>({ backend, groupResource: { group: '', resource: 'configmaps' } });
  const stopCompactor = startCompactor({
    backend,
    intervalMs: Number(intervalMs),
    onStep: (step) => {
      if (step.compacted > 0) send({ compacted: { revision: step.compacted, at: Date.now() } });
    },
    onError: (err) => {
      send({ error: err.message });
    },
  });
  const watch = await store.watch(peerPrefix, { recursive: true, resourceVersion: fromRv });
  void (async () => {
    for await (const ev of watch) {
      if (ev.type === 'ERROR') send({ error: ev.object.message ?? 'watch error' });
      else if (ev.type !== 'BOOKMARK') {
        const { name = '', resourceVersion = '0' } = ev.object.metadata ?? {};
        send({ event: { type: ev.type, name, rv: Number(resourceVersion) } });
      }
    }
  })();
  send({ ready: true });
  for await (const line of createInterface({ input: process.stdin })) {
    const cmd = JSON.parse(line) as { create?: string; stop?: boolean };
    if (cmd.create !== undefined) {
      const obj = await store.create(`${peerPrefix}/${cmd.create}`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: cmd.create, namespace: 'peer' },
      });
      send({ acked: { name: cmd.create, rv: Number(obj.metadata?.resourceVersion) } });
    }
    if (cmd.stop === true) break;
  }
  watch.stop();
  await stopCompactor();
  await backend.close();
}

// Exits once done: stdin stays referenced after the last line, so the process would not end alone.
main().then(
  () => process.exit(0),
  (err: unknown) => {
    send({ error: String(err) });
    process.exit(1);
  },
);
