import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, readFlags } from './capstan.js';
import { recordingIO } from './testing/recording-io.js';
import { configArgs, mergeArgs } from './config-file.js';

const io = recordingIO;

async function withFile(text: string, fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-config-'));
  try {
    const path = join(dir, 'capstan.yaml');
    await writeFile(path, text);
    await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('--config file', () => {
  it('turns YAML entries into flag arguments: scalars, lists and maps', () => {
    assert.deepEqual(
      configArgs(
        [
          'secure-port: 7443',
          'anonymous-auth: true',
          'etcd-servers: [http://a:2379, http://b:2379]',
          'runtime-config: { api/all: false, apps/v1: true }',
          'v: 2',
        ].join('\n'),
      ),
      [
        '--secure-port=7443',
        '--anonymous-auth=true',
        '--etcd-servers=http://a:2379,http://b:2379',
        '--runtime-config=api/all=false,apps/v1=true',
        '--v=2',
      ],
    );
    assert.deepEqual(configArgs('{"data-dir": "/srv/capstan"}'), ['--data-dir=/srv/capstan']);
    assert.deepEqual(configArgs(''), []);
  });

  it('refuses what is not a map of flags', () => {
    assert.throws(() => configArgs('- a\n- b\n'), /must be a map of flag names to values/);
    assert.throws(() => configArgs('secure-port: [1, [2]]'), /"secure-port" must be a string, number/);
    assert.throws(() => configArgs('etcd-servers: { a: null }'), /"etcd-servers" must be/);
    assert.throws(() => configArgs('config: other.yaml'), /cannot name another config file/);
    assert.throws(() => configArgs('a: [unclosed'), /not YAML or JSON/);
  });

  it('lets the command line replace the file value of the same flag', () => {
    assert.deepEqual(
      mergeArgs(
        ['--secure-port=7443', '--etcd-servers=http://a:2379', '--v=2'],
        ['--etcd-servers', 'http://c:2379', '-v', '4'],
      ),
      ['--secure-port=7443', '--etcd-servers', 'http://c:2379', '-v', '4'],
    );
  });

  it('reads the options from the file under the command line', () =>
    withFile(
      [
        'secure-port: 7443',
        'data-dir: /srv/capstan',
        'etcd-servers: [http://a:2379, http://b:2379]',
        'enable-garbage-collector: false',
      ].join('\n'),
      async (path) => {
        const { options } = await readFlags([`--config=${path}`, '--etcd-servers=http://c:2379']);
        assert.equal(options.securePort, 7443);
        assert.equal(options.storage.dataDir, '/srv/capstan');
        assert.deepEqual(options.storage.etcdServers, ['http://c:2379']);
        assert.equal(options.storage.enableGarbageCollection, false);
        assert.equal(options.configFile, path);
      },
    ));

  it('exits 2 naming the file for an unknown flag, a bad value or a missing file', async () => {
    await withFile('secure-prot: 7443\n', async (path) => {
      const t = io();
      assert.equal(await main([`--config=${path}`], t), 2);
      assert.equal(
        t.err.join(''),
        `Error: config file ${path}: unknown flag: --secure-prot\nRun 'capstan --help' for usage.\n`,
      );
    });
    await withFile('secure-port: many\n', async (path) => {
      const t = io();
      assert.equal(await main([`--config=${path}`], t), 2);
      assert.match(
        t.err.join(''),
        /^Error: config file .*: invalid argument "many" for "--secure-port" flag: strconv.ParseInt/,
      );
    });
    const t = io();
    assert.equal(await main(['--config=/nonexistent/capstan.yaml'], t), 2);
    assert.match(t.err.join(''), /^Error: config file \/nonexistent\/capstan.yaml: ENOENT/);
  });
});

describe('--version', () => {
  it("prints kube-apiserver's forms and exits 0", async () => {
    const t = io();
    assert.equal(await main(['--version'], t), 0);
    assert.equal(t.out.join(''), 'Kubernetes v1.33.0+capstan.0.1.0\n');
    const raw = io();
    assert.equal(await main(['--version=raw'], raw), 0);
    assert.match(
      raw.out.join(''),
      /^version\.Info\{Major:"1", Minor:"33", .*GitVersion:"v1\.33\.0\+capstan\.0\.1\.0", .*Platform:"linux\/\w+"\}\n$/,
    );
    const off = io();
    assert.equal(await main(['--version=false', '--help'], off), 0);
    assert.match(off.out.join(''), /--version +Print version information/);
  });
});
