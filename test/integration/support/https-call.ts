// HTTPS requests to an in-process server as a given bearer token, trusting the server's CA from its
// kubeconfig, for integration tests that read status codes and Status bodies.
import assert from 'node:assert/strict';
import { request } from 'node:https';
import type { CapstanServer } from '../../../src/index.js';

export interface Reply {
  status: number;
  body: string;
  /** The body parsed, or {} when it is no JSON (healthz). */
  json: Record<string, unknown>;
}

export interface CallOptions {
  readonly method?: string;
  readonly path: string;
  /** Absent: an anonymous request. */
  readonly token?: string;
  readonly body?: unknown;
  readonly contentType?: string;
}

export function call(server: CapstanServer, req: CallOptions): Promise<Reply> {
  const cluster = server.kubeConfig.clusters[0]?.cluster;
  const ca = Buffer.from(cluster?.['certificate-authority-data'] ?? '', 'base64').toString();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (req.token !== undefined) headers.authorization = `Bearer ${req.token}`;
  const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
  if (payload !== undefined) headers['content-type'] = req.contentType ?? 'application/json';
  return new Promise((resolve, reject) => {
    const r = request(`${server.url}${req.path}`, { ca, headers, method: req.method ?? 'GET' }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(body) as Record<string, unknown>;
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body, json });
      });
    });
    r.on('error', reject);
    r.end(payload);
  });
}

/** The bearer token of the admin kubeconfig (a system:masters user). */
export const adminToken = (s: CapstanServer): string => s.kubeConfig.users[0]?.user.token ?? '';

/** The 403 Status body kube writes for a denied request. */
export function forbiddenStatus(message: string, details: Record<string, string>): Record<string, unknown> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Forbidden',
    details,
    code: 403,
  };
}

/** Polls `check` every 25 ms until it holds; fails after 10 s naming `what`. */
export async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
