import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writePKIDir } from '../tls/pki-dir.js';
import {
  clusterSigningOf,
  defaultClusterSigningOptions,
  type ClusterSigningSources,
} from './cluster-signing.js';

describe('the cluster signing CA', () => {
  let dir: string;
  let pki: string;
  let caPem: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-signing-'));
    pki = join(dir, 'pki');
    await writePKIDir({ dir: pki, sans: [], server: 'https://127.0.0.1:6443' });
    caPem = await readFile(join(pki, 'ca.crt'), 'utf8');
  });
  after(() => rm(dir, { recursive: true, force: true }));
  const sources = (over: Partial<ClusterSigningSources>): ClusterSigningSources => ({
    signing: defaultClusterSigningOptions(),
    pkiDir: '',
    generatedCA: false,
    dataDir: dir,
    clientCAPem: '',
    ...over,
  });

  it("is the --pki-dir CA that --client-ca-file trusts, a year's duration", async () => {
    const got = await clusterSigningOf(sources({ pkiDir: pki, clientCAPem: caPem }));
    assert.ok('ca' in got);
    assert.equal(got.certFile, join(pki, 'ca.crt'));
    assert.equal(got.certTTLMs, 365 * 86_400_000);
  });

  it("is the data dir's generated CA once --client-ca-file names it", async () => {
    const got = await clusterSigningOf(sources({ generatedCA: true, dataDir: dir, clientCAPem: caPem }));
    assert.ok('ca' in got);
    assert.equal(got.certFile, join(dir, 'pki', 'ca.crt'));
  });

  it('is its own CA all the same when client certificates do not trust it', async () => {
    const untrusted = await clusterSigningOf(sources({ pkiDir: pki }));
    assert.ok('ca' in untrusted);
    assert.equal(untrusted.certFile, join(pki, 'ca.crt'));
    const foreign = await clusterSigningOf(sources({ generatedCA: true, clientCAPem: 'not a bundle' }));
    assert.ok('ca' in foreign);
    assert.equal(foreign.certFile, join(dir, 'pki', 'ca.crt'));
  });

  it('is off without a CA of its own, or with one file only', async () => {
    const none = await clusterSigningOf(sources({ clientCAPem: caPem }));
    assert.ok('off' in none);
    assert.match(
      none.off,
      /^Skipping CSR signer controller because no csr cert\/key was specified, and this/,
    );
    const keyless = await clusterSigningOf(sources({ pkiDir: join(dir, 'nowhere') }));
    assert.ok('off' in keyless);
    const one = await clusterSigningOf(
      sources({
        signing: { ...defaultClusterSigningOptions(), certFile: join(pki, 'ca.crt') },
        clientCAPem: caPem,
      }),
    );
    assert.deepEqual(one, { off: 'Skipping CSR signer controller because no csr cert/key was specified' });
  });

  it('reads the flags, and stops the start when their files do not make a CA', async () => {
    const signing = { certFile: join(pki, 'ca.crt'), keyFile: join(pki, 'ca.key'), durationMs: 3_600_000 };
    const given = await clusterSigningOf(sources({ signing }));
    assert.ok('ca' in given);
    assert.equal(given.certTTLMs, 3_600_000);
    const wrongKey = await clusterSigningOf(
      sources({ signing: { ...signing, keyFile: join(pki, 'admin.key') } }),
    );
    assert.deepEqual(wrongKey, {
      error:
        'failed to start kubernetes.io/kubelet-serving certificate controller: tls: private key does not match public key',
    });
    const empty = join(dir, 'empty.crt');
    await writeFile(empty, '');
    const noCert = await clusterSigningOf(sources({ signing: { ...signing, certFile: empty } }));
    assert.deepEqual(noCert, {
      error: `failed to start kubernetes.io/kubelet-serving certificate controller: error reading CA cert file ${JSON.stringify(empty)}: expected 1 certificate, found 0`,
    });
  });
});
