import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { main } from './capstan.js';
import { recordingIO } from './testing/recording-io.js';
import { parseFlags } from './flag-set.js';
import { capstanFlags } from './flags.js';
import { defaultServerRunOptions } from '../server/options/server-run-options.js';
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockPath } from '../storage/backends/sqlite/open-database.js';

const io = recordingIO;

describe('capstan command line', () => {
  it('refuses an unknown flag with exit code 2', async () => {
    const t = io();
    assert.equal(await main(['--no-such-flag=1'], t), 2);
    assert.equal(t.err.join(''), "Error: unknown flag: --no-such-flag\nRun 'capstan --help' for usage.\n");
  });

  it('refuses bad values and missing values with pflag words, exit code 2', async () => {
    const t = io();
    assert.equal(await main(['--secure-port', 'abc'], t), 2);
    assert.ok(
      t.err
        .join('')
        .startsWith(
          'Error: invalid argument "abc" for "--secure-port" flag: strconv.ParseInt: parsing "abc": invalid syntax\n',
        ),
    );
    const u = io();
    assert.equal(await main(['--request-timeout'], u), 2);
    assert.ok(u.err.join('').startsWith('Error: flag needs an argument: --request-timeout\n'));
    const gate = io();
    assert.equal(await main(['--feature-gates=ImageVolume=true,NoSuchGate=true'], gate), 2);
    assert.ok(
      gate.err
        .join('')
        .startsWith(
          'Error: invalid argument "ImageVolume=true,NoSuchGate=true" for "--feature-gates" flag: unrecognized feature gate: NoSuchGate\n',
        ),
    );
    const v = io();
    assert.equal(await main(['--storage-backend=mysql'], v), 2);
    assert.match(v.err[0] ?? '', /must be one of sqlite, etcd3, memory/);
    const w = io();
    assert.equal(await main(['serve'], w), 2);
  });

  it('prints help and exits 0', async () => {
    const t = io();
    assert.equal(await main(['--help'], t), 0);
    const text = t.out.join('');
    for (const name of [
      '--secure-port int',
      '--storage-backend string',
      '--etcd-servers strings',
      '--runtime-config mapStringString',
      '-v, --v int',
      '--anonymous-auth ',
    ]) {
      assert.ok(text.includes(name), name);
    }
    assert.match(text, /--secure-port int +The port .*\(default 6443\)/);
  });

  it('exits 1 on invalid option values, printing each error', async () => {
    const t = io();
    assert.equal(
      await main(
        ['--storage-backend=etcd3', '--delete-collection-workers=0', '--data-dir=/tmp/capstan-unused'],
        t,
      ),
      1,
    );
    assert.deepEqual(t.err, [
      'Error: --etcd-servers must be specified\n',
      'Error: --delete-collection-workers must be greater than 0\n',
    ]);
  });

  it('takes --secure-port 0 as a free port; -1 turns HTTPS off only beside --insecure-port', async () => {
    const t = io();
    assert.equal(await main(['--secure-port=-2', '--data-dir=/tmp/capstan-unused'], t), 1);
    assert.deepEqual(t.err, [
      'Error: --secure-port -2 must be between 0 and 65535, inclusive (0 picks a free port), or -1 for turning off secure port\n',
    ]);
    const u = io();
    assert.equal(await main(['--secure-port=-1', '--data-dir=/tmp/capstan-unused'], u), 1);
    assert.deepEqual(u.err, ['Error: --secure-port -1 needs --insecure-port: nothing would be served\n']);
    const o = defaultServerRunOptions();
    parseFlags(['--secure-port=0'], capstanFlags, o);
    assert.equal(o.securePort, 0);
  });

  it('checks --service-cluster-ip-range and --service-node-port-range with kube words', async () => {
    const t = io();
    assert.equal(await main(['--service-node-port-range=30000-x'], t), 2);
    assert.ok(
      (t.err[0] ?? '').startsWith(
        'Error: invalid argument "30000-x" for "--service-node-port-range" flag: strconv.Atoi: parsing "x": invalid syntax\n',
      ),
    );
    const u = io();
    assert.equal(
      await main(['--service-cluster-ip-range=10.0.0.0/24,10.1.0.0/24', '--data-dir=/tmp/capstan-unused'], u),
      1,
    );
    assert.deepEqual(u.err, [
      'Error: --service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family\n',
    ]);
  });

  it('exits 1 on a --runtime-config naming a group the server does not know', async () => {
    const t = io();
    assert.equal(
      await main(['--runtime-config=nosuch.k8s.io/v1=true', '--data-dir=/tmp/capstan-unused'], t),
      1,
    );
    assert.deepEqual(t.err, ['Error: unknown api groups nosuch.k8s.io\n']);
  });

  it('exits 1 with one error line, no stack, when another server holds the data dir', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-locked-'));
    // What another server's SQLite backend holds while it runs (open-database.ts).
    const holder = new Database(lockPath(join(dir, 'capstan.db')));
    try {
      holder.pragma('locking_mode = EXCLUSIVE');
      holder.exec('CREATE TABLE owner (pid INTEGER); INSERT INTO owner VALUES (1)');
      const t = io();
      assert.equal(await main([`--data-dir=${dir}`, '--secure-port=0'], t), 1);
      const failed = t.err.filter((line) => line.includes('"failed to start"'));
      assert.equal(failed.length, 1, t.err.join(''));
      assert.match(
        failed[0] ?? '',
        /^E\d{4} .* err="sqlite backend \(.*\): the database is locked by another/,
      );
      assert.doesNotMatch(t.err.join(''), /\n\s+at /);
    } finally {
      holder.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('parses pflag forms: --a=b, --a b, bools with and without values, -v forms, repeats', () => {
    const o = defaultServerRunOptions();
    parseFlags(
      [
        '--secure-port=7443',
        '--bind-address',
        '127.0.0.1',
        '--anonymous-auth',
        '--watch-cache=false',
        '-v=4',
        '--etcd-servers=http://a:2379,http://b:2379',
        '--etcd-servers',
        'http://c:2379',
        '--request-timeout=1m30s',
        '--event-ttl=2h',
        '--runtime-config=api/all=false,apps/v1',
      ],
      capstanFlags,
      o,
    );
    assert.equal(o.securePort, 7443);
    assert.equal(o.bindAddress, '127.0.0.1');
    assert.equal(o.anonymousAuth, true);
    assert.equal(o.storage.enableWatchCache, false);
    assert.equal(o.verbosity, 4);
    assert.deepEqual(o.storage.etcdServers, ['http://a:2379', 'http://b:2379', 'http://c:2379']);
    assert.equal(o.requestTimeoutMs, 90_000);
    assert.equal(o.eventTTLMs, 7_200_000);
    assert.deepEqual(o.runtimeConfig, ['api/all=false,apps/v1']);
    for (const args of [['-v4'], ['-v', '4'], ['--v=4']]) {
      const p = defaultServerRunOptions();
      parseFlags(args, capstanFlags, p);
      assert.equal(p.verbosity, 4);
    }
  });
});
