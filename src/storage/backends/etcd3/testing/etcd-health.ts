// Polls etcd's /health on its client URL until it answers {"health":"true"}.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TlsFiles } from './tls-certs.js';

function getHealth(endpoint: string, tls: TlsFiles | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const url = new URL('/health', endpoint);
    const onResponse = (res: import('node:http').IncomingMessage): void => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        resolve(res.statusCode === 200 && body.includes('"true"'));
      });
    };
    const req =
      tls === undefined
        ? httpRequest(url, { timeout: 1000 }, onResponse)
        : httpsRequest(
            url,
            {
              timeout: 1000,
              ca: readFileSync(tls.caFile),
              cert: readFileSync(tls.clientCertFile),
              key: readFileSync(tls.clientKeyFile),
            },
            onResponse,
          );
    req.on('error', () => {
      resolve(false);
    });
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}

export async function waitHealthy(opts: {
  endpoint: string;
  tls: TlsFiles | undefined;
  timeoutMs: number;
  alive: () => boolean;
}): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  while (Date.now() < deadline) {
    if (!opts.alive()) throw new Error('process exited');
    if (await getHealth(opts.endpoint, opts.tls)) return;
    await sleep(25);
  }
  throw new Error(`not healthy after ${opts.timeoutMs} ms`);
}
