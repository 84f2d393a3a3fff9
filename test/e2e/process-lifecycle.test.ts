// The capstan process as an operator runs it: ready, graceful exit on SIGTERM with code 0, and a
// restart on the same data dir (SQLite) that reuses the CA, the serving certificate and the token.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstanProcess } from './support/capstan-process.js';

describe('capstan process lifecycle', () => {
  it('exits 0 on SIGTERM and reuses its TLS files and token after a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'capstan-lifecycle-'));
    try {
      const first = await startCapstanProcess({ dataDir });
      const kubeconfig = await readFile(first.kubeconfigPath, 'utf8');
      const cert = await readFile(join(dataDir, 'pki', 'apiserver.crt'), 'utf8');
      assert.match(first.log(), /"Capstan is serving" url="https:\/\/127\.0\.0\.1:\d+" storage="sqlite"/);
      assert.equal(await first.stop(), 0);
      assert.match(first.log(), /"Received signal, shutting down gracefully" signal="SIGTERM"/);

      const second = await startCapstanProcess({ dataDir });
      try {
        const again = await readFile(second.kubeconfigPath, 'utf8');
        const ca = (text: string): string | undefined =>
          /certificate-authority-data: "([^"]+)"/.exec(text)?.[1];
        const token = (text: string): string | undefined => /token: "([^"]+)"/.exec(text)?.[1];
        assert.equal(ca(again), ca(kubeconfig));
        assert.equal(token(again), token(kubeconfig));
        assert.equal(await readFile(join(dataDir, 'pki', 'apiserver.crt'), 'utf8'), cert);
      } finally {
        assert.equal(await second.stop(), 0);
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
