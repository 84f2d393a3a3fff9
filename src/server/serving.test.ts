// The server on real sockets: HTTPS with HTTP/2 (client-go) and HTTP/1.1 (curl), and a graceful
// shutdown that ends watches.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completeConfig } from './config.js';
import { GenericAPIServer, type APIMount } from './generic-api-server.js';
import { writeChunk } from './http/respond.js';
import { Logger, memorySink } from './logging/logger.js';
import { defaultAltNames, ensureServingCertificates } from './tls/self-signed.js';

const watchHandler: APIMount = async (scope) => {
  scope.res.statusCode = 200;
  scope.res.setHeader('Content-Type', 'application/json');
  if (!scope.longRunning) {
    scope.res.end('{"kind":"List"}');
    return true;
  }
  writeChunk(scope.res, '{"type":"ADDED","object":{}}\n');
  await new Promise<void>((resolve) => {
    scope.signal.addEventListener(
      'abort',
      () => {
        resolve();
      },
      { once: true },
    );
  });
  return true;
};

async function tlsServer(): Promise<{ server: GenericAPIServer; ca: string }> {
  // The certificates are read into memory: their directory goes at once.
  const dir = await mkdtemp(join(tmpdir(), 'capstan-serving-'));
  const certs = await ensureServingCertificates(dir, defaultAltNames('127.0.0.1')).finally(() =>
    rm(dir, { recursive: true, force: true }),
  );
  const config = completeConfig({
    listeners: [{ bindAddress: '127.0.0.1', port: 0, tls: { certPem: certs.certPem, keyPem: certs.keyPem } }],
    anonymousAuth: true,
    logger: new Logger({ sink: memorySink() }),
  });
  const server = new GenericAPIServer(config);
  server.mountAPIHandler(watchHandler);
  await server.start();
  return { server, ca: certs.caPem };
}

describe('serving over TLS', () => {
  it('speaks HTTP/2 and HTTP/1.1 on one port, trusted through the generated CA', async () => {
    const { server, ca } = await tlsServer();
    try {
      const session = connect(server.url, { ca });
      const h2 = await new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
        const req = session.request({ ':path': '/readyz' });
        let body = '';
        let status: number | undefined;
        req.on('response', (h) => {
          status = h[':status'];
        });
        req.on('data', (d: Buffer) => {
          body += d.toString();
        });
        req.on('end', () => {
          resolve({ status, body });
        });
        req.on('error', reject);
      });
      session.close();
      assert.deepEqual(h2, { status: 200, body: 'ok' });
      const h1 = await new Promise<{ status: number | undefined; version: string }>((resolve, reject) => {
        httpsRequest(`${server.url}/version`, { ca }, (res) => {
          res.resume();
          res.on('end', () => {
            resolve({ status: res.statusCode, version: res.httpVersion });
          });
        })
          .on('error', reject)
          .end();
      });
      assert.deepEqual(h1, { status: 200, version: '1.1' });
    } finally {
      await server.shutdown();
    }
  });

  it('ends watches on shutdown and stops listening', async () => {
    const { server, ca } = await tlsServer();
    const session = connect(server.url, { ca });
    const ended = new Promise<string>((resolve, reject) => {
      const req = session.request({ ':path': '/api/v1/pods?watch=true' });
      let body = '';
      req.on('data', (d: Buffer) => {
        body += d.toString();
      });
      req.on('end', () => {
        resolve(body);
      });
      req.on('error', reject);
    });
    await new Promise((r) => setTimeout(r, 50));
    const url = server.url;
    const started = performance.now();
    await server.shutdown();
    assert.equal(await ended, '{"type":"ADDED","object":{}}\n');
    assert.ok(performance.now() - started < 2000);
    session.destroy();
    await assert.rejects(
      new Promise((resolve, reject) => {
        httpsRequest(`${url}/healthz`, { ca }, resolve).on('error', reject).end();
      }),
      { code: 'ECONNREFUSED' },
    );
  });
});
