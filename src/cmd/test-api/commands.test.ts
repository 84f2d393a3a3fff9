// The `capstan` test API subcommands against an in-process server (HTTPS, its admin kubeconfig).
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment --
   client-node's models are generated data-only classes; its API is meant to take plain object literals. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { startCapstan, type CapstanServer } from '../../index.js';
import { main } from '../capstan.js';
import { recordingIO } from '../testing/recording-io.js';

let server: CapstanServer;
let core: CoreV1Api;
before(async () => {
  server = await startCapstan({ clock: 'virtual', enableTestAPI: true });
  const kc = new KubeConfig();
  kc.loadFromFile(server.kubeconfigPath);
  core = kc.makeApiClient(CoreV1Api);
});
after(() => server.stop());

async function capstan(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = recordingIO();
  const code = await main([...args, `--kubeconfig=${server.kubeconfigPath}`], io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

const configMaps = async (): Promise<string[]> =>
  (await core.listNamespacedConfigMap({ namespace: 'default' })).items.map((i) => i.metadata?.name ?? '');

describe('capstan test API subcommands', () => {
  it('lists them in --help', async () => {
    const io = recordingIO();
    assert.equal(await main(['--help'], io), 0);
    const help = io.out.join('');
    for (const cmd of [
      'snapshot',
      'restore NAME',
      'requests [filters]',
      'fault add',
      'clock advance DURATION',
    ])
      assert.ok(help.includes(`capstan ${cmd}`), cmd);
  });

  it('snapshot, snapshots and restore', async () => {
    const snap = await capstan('snapshot');
    assert.deepEqual([snap.code, snap.err], [0, '']);
    const name = snap.out.trim();
    assert.match(name, /^snapshot-\d+$/);
    assert.match((await capstan('snapshots')).out, new RegExp(`^NAME +KEYS +TAKEN\\n${name} +\\d+ +\\d{4}-`));
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'after-snapshot' } },
    });
    assert.ok((await configMaps()).includes('after-snapshot'));
    const restored = await capstan('restore', name);
    assert.deepEqual([restored.code, restored.out], [0, `restored ${name}\n`]);
    assert.ok(!(await configMaps()).includes('after-snapshot'));
    const missing = await capstan('restore', 'snapshot-999');
    assert.equal(missing.code, 1);
    assert.match(missing.err, /^Error from server \(NotFound\): /);
  });

  it('requests with filters, as a table and as JSON, and clear', async () => {
    assert.equal((await capstan('requests', 'clear')).code, 0);
    await configMaps();
    const tableOut = await capstan('requests', '--verb=list', '--resource=configmaps');
    assert.equal(tableOut.code, 0);
    const lines = tableOut.out.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^VERB +RESOURCE +NAMESPACE +NAME +USER +CODE +LATENCY$/);
    assert.equal(lines.length, 2);
    assert.match(lines[1] ?? '', /^list +configmaps +default +capstan-admin +200 +\d+ms$/);
    const asJson = await capstan('requests', '--code=200', '-o', 'json');
    const items = (JSON.parse(asJson.out) as { items: { verb: string }[] }).items;
    assert.deepEqual(
      items.map((r) => r.verb),
      ['list'],
    );
  });

  it('fault add, list, remove and clear', async () => {
    const added = await capstan(
      'fault',
      'add',
      '--verb=list',
      '--resource=configmaps',
      '--respond=503',
      '--times=2',
    );
    assert.equal(added.code, 0);
    const id = added.out.trim();
    const listed = JSON.parse((await capstan('fault', 'list')).out) as {
      items: { id: string; remaining: number }[];
    };
    assert.deepEqual(
      listed.items.map((f) => [f.id, f.remaining]),
      [[id, 2]],
    );
    assert.deepEqual(
      server.faults.list().map((f) => f.rule),
      [{ verb: 'list', resource: 'configmaps', respond: 503, times: 2 }],
    );
    assert.equal((await capstan('fault', 'remove', id)).code, 0);
    await capstan('fault', 'add', '--verb=get', '--verb=list', '--latency=5');
    assert.equal((await capstan('fault', 'clear')).code, 0);
    assert.deepEqual(server.faults.list(), []);
    const bad = await capstan('fault', 'add', '--respond=418');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /^Error from server \(BadRequest\): fault rule: respond is one of/);
  });

  it('clock, clock advance and clock set', async () => {
    const start = server.clock.now();
    assert.equal((await capstan('clock')).out, `${new Date(start).toISOString()} (virtual)\n`);
    const advanced = await capstan('clock', 'advance', '5m');
    assert.deepEqual(
      [advanced.code, advanced.out],
      [0, `${new Date(start + 300_000).toISOString()} (virtual)\n`],
    );
    assert.equal(server.clock.now(), start + 300_000);
    const target = new Date(start + 86_400_000).toISOString();
    assert.equal((await capstan('clock', 'set', target)).code, 0);
    assert.equal(server.clock.now(), start + 86_400_000);
  });

  it('refuses usage errors with exit code 2', async () => {
    assert.equal((await capstan('restore')).code, 2);
    assert.equal((await capstan('clock', 'rewind')).code, 2);
    assert.equal((await capstan('requests', '--colour=red')).code, 2);
  });
});
