// SQLite on a full disk: Capstan's data dir sits on a small tmpfs that a ballast file fills. A create
// that does not fit is answered 500 with etcd's NOSPACE words, nothing of it is stored, and reads go
// on; once the ballast is gone, writes succeed again; after kill -9 and a restart every acknowledged
// object is there, whole. Mounting a tmpfs needs root on Linux: elsewhere the test says why it
// skips, and in CI it fails instead.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { promisify } from 'node:util';
import { CapstanNode } from './support/capstan-node.js';
import { KubeClient } from './support/kube-client.js';

const run = promisify(execFile);
const inCI = process.env['CI'] !== undefined && process.env['CI'] !== '';
const mountPoint = mkdtempSync(join(tmpdir(), 'capstan-full-'));
const ballast = join(mountPoint, 'ballast');
let mounted = false;
let cannot = '';
let node: CapstanNode | undefined;

before(async () => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    cannot = 'mounting a tmpfs needs root on Linux';
    return;
  }
  try {
    await run('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mountPoint]);
    mounted = true;
  } catch (err) {
    cannot = `mount -t tmpfs failed: ${String(err)}`;
    return;
  }
  const dataDir = join(mountPoint, 'data');
  mkdirSync(dataDir);
  node = await CapstanNode.start([], { dataDir });
});

after(async () => {
  await node?.stop();
  if (mounted) await run('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

const value = (i: number): string => `${String(i)}:`.padEnd(40_000, 'x');
const configMap = (name: string, i: number): unknown => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { v: value(i) },
});
const path = (name = ''): string => `/api/v1/namespaces/default/configmaps${name === '' ? '' : `/${name}`}`;

it('SQLite on a full disk: refuses what does not fit, keeps what it acknowledged, and recovers', async (t) => {
  if (cannot !== '') {
    if (inCI) assert.fail(`cannot fill a disk: ${cannot}`);
    t.skip(cannot);
    return;
  }
  const n = node as CapstanNode;
  const kube = new KubeClient(() => n.credentials, 10_000);
  t.after(() => {
    kube.close();
  });
  // All but 1 MiB of the tmpfs goes to the ballast.
  const fs = statfsSync(mountPoint);
  writeFileSync(ballast, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - 1024 * 1024)));

  const acknowledged: number[] = [];
  const refused: number[] = [];
  for (let i = 0; i < 200 && refused.length < 3; i++) {
    const reply = await kube.request('POST', path(), configMap(`cm-${String(i)}`, i));
    if (reply.status === 201) acknowledged.push(i);
    else {
      assert.equal(reply.status, 500, JSON.stringify(reply.body));
      assert.equal(reply.body['kind'], 'Status');
      assert.match(String(reply.body['message']), /database space exceeded/);
      refused.push(i);
    }
  }
  assert.ok(acknowledged.length > 0, 'some creates fit before the disk filled');
  assert.equal(refused.length, 3, `the disk never filled (${String(acknowledged.length)} creates)`);
  t.diagnostic(`${String(acknowledged.length)} creates fitted before the disk filled`);

  // Reads go on while the disk is full.
  const first = await kube.request('GET', path(`cm-${String(acknowledged[0])}`));
  assert.equal(first.status, 200);
  assert.equal((await kube.request('GET', path())).status, 200);

  // With the ballast gone, writes succeed again.
  rmSync(ballast);
  const deadline = Date.now() + 10_000;
  let again = await kube.request('POST', path(), configMap('after', -1));
  while (again.status !== 201) {
    assert.ok(
      Date.now() < deadline,
      `no create succeeded after space was freed: ${JSON.stringify(again.body)}`,
    );
    await new Promise((r) => setTimeout(r, 100));
    again = await kube.request('POST', path(), configMap('after', -1));
  }

  // Nothing acknowledged is lost, nothing refused is half there, across kill -9.
  await n.restart();
  for (const i of acknowledged) {
    const got = await kube.request('GET', path(`cm-${String(i)}`));
    assert.equal(got.status, 200, `cm-${String(i)} was acknowledged`);
    assert.deepEqual(got.body['data'], { v: value(i) });
  }
  for (const i of refused) {
    const got = await kube.request('GET', path(`cm-${String(i)}`));
    assert.equal(got.status, 404, `cm-${String(i)} was refused`);
  }
  assert.equal((await kube.request('GET', path('after'))).status, 200);
});
