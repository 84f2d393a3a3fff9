// `capstan pki`: the files of a PKI directory, the SANs of its serving certificate, admin credentials
// in system:masters, and a second run that keeps the CA and the service account key.
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runPKICommand } from './pki-command.js';

describe('capstan pki', () => {
  let dir = '';
  const out: string[] = [];
  const io = { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => out.push(s) } };
  const read = (f: string): Promise<string> => readFile(join(dir, f), 'utf8');

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-pki-test-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('writes a CA, a serving certificate for the SANs, the SA key pair and admin credentials', async () => {
    assert.equal(
      await runPKICommand(['--dir', dir, '--san', '10.1.2.3,api.example.com', '--san', '10.1.2.4'], io),
      0,
    );
    const ca = new X509Certificate(await read('ca.crt'));
    const serving = new X509Certificate(await read('apiserver.crt'));
    assert.ok(serving.checkIssued(ca) && serving.verify(ca.publicKey));
    for (const ip of ['10.1.2.3', '10.1.2.4', '127.0.0.1']) assert.equal(serving.checkIP(ip), ip);
    for (const host of ['api.example.com', 'kubernetes.default.svc'])
      assert.equal(serving.checkHost(host), host);
    assert.ok(serving.checkPrivateKey(createPrivateKey(await read('apiserver.key'))));
    const admin = new X509Certificate(await read('admin.crt'));
    assert.ok(admin.checkIssued(ca));
    assert.match(admin.subject, /O=system:masters/);
    assert.match(admin.subject, /CN=kubernetes-admin/);
    const saPub = createPublicKey(await read('sa.pub')).export({ type: 'spki', format: 'der' });
    const fromKey = createPublicKey(createPrivateKey(await read('sa.key'))).export({
      type: 'spki',
      format: 'der',
    });
    assert.deepEqual(saPub, fromKey);
    const kubeconfig = JSON.parse(await read('admin.kubeconfig')) as {
      clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
      users: { user: Record<string, string> }[];
    };
    const cluster = kubeconfig.clusters[0]?.cluster;
    assert.ok(cluster !== undefined);
    assert.equal(cluster.server, 'https://10.1.2.3:6443');
    const caData = cluster['certificate-authority-data'];
    assert.equal(Buffer.from(caData, 'base64').toString(), await read('ca.crt'));
    assert.equal(
      Buffer.from(kubeconfig.users[0]?.user['client-certificate-data'] ?? '', 'base64').toString(),
      await read('admin.crt'),
    );
  });

  it('keeps the CA and the service account key when run again', async () => {
    const [ca, sa] = await Promise.all([read('ca.crt'), read('sa.key')]);
    assert.equal(await runPKICommand(['--dir', dir, '--san', '10.9.9.9'], io), 0);
    assert.equal(await read('ca.crt'), ca);
    assert.equal(await read('sa.key'), sa);
    assert.equal(new X509Certificate(await read('apiserver.crt')).checkIP('10.9.9.9'), '10.9.9.9');
  });

  it('asks for --dir', async () => {
    assert.equal(await runPKICommand(['--san', '10.0.0.1'], io), 2);
    assert.match(out.join(''), /--dir is required/);
  });
});
