import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { withCertDir } from '../server/options/cert-dir.js';
import { readFlags } from './capstan.js';
import { FlagError } from './flag-set.js';

describe('defaults that follow kube-apiserver flags', () => {
  it('--etcd-servers without --storage-backend stores in etcd', async () => {
    const { options } = await readFlags(['--etcd-servers=http://127.0.0.1:2379']);
    assert.equal(options.storage.backend, 'etcd3');
    const chosen = await readFlags(['--etcd-servers=http://127.0.0.1:2379', '--storage-backend=sqlite']);
    assert.equal(chosen.options.storage.backend, 'sqlite');
    assert.equal((await readFlags([])).options.storage.backend, 'sqlite');
  });

  it('--cert-dir without --data-dir keeps what Capstan makes in the cert dir', async () => {
    assert.equal((await readFlags(['--cert-dir=/tmp/certs'])).options.storage.dataDir, '/tmp/certs');
    const both = await readFlags(['--cert-dir=/tmp/certs', '--data-dir=/tmp/data']);
    assert.equal(both.options.storage.dataDir, '/tmp/data');
    assert.equal((await readFlags([])).options.storage.dataDir, './.capstan');
  });

  it('--allow-privileged takes true only', async () => {
    await readFlags(['--allow-privileged=true']);
    await assert.rejects(readFlags(['--allow-privileged=false']), (err: unknown) => {
      assert.ok(err instanceof FlagError);
      assert.match(
        err.message,
        /invalid argument "false" for "--allow-privileged" flag: Capstan always allows/,
      );
      return true;
    });
  });
});

describe('--cert-dir', () => {
  const options = (certDirectory: string, tlsCertFile = '') => ({
    certDirectory,
    tlsCertFile,
    tlsPrivateKeyFile: tlsCertFile === '' ? '' : `${tlsCertFile}.key`,
  });

  it('serves with apiserver.crt and apiserver.key when both are there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cert-dir-'));
    try {
      assert.deepEqual(await withCertDir(options(dir)), options(dir));
      await writeFile(join(dir, 'apiserver.crt'), 'c');
      assert.deepEqual(await withCertDir(options(dir)), options(dir), 'a certificate without its key');
      await writeFile(join(dir, 'apiserver.key'), 'k');
      assert.deepEqual(await withCertDir(options(dir)), {
        certDirectory: dir,
        tlsCertFile: join(dir, 'apiserver.crt'),
        tlsPrivateKeyFile: join(dir, 'apiserver.key'),
      });
      assert.deepEqual(await withCertDir(options(dir, '/given.crt')), options(dir, '/given.crt'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
