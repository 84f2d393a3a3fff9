// A JSON request to an in-process server over plain HTTP as the admin, for integration tests that
// read a status and a decoded body.
import type { CapstanServer } from '../../../src/index.js';
import { adminToken } from './https-call.js';

export interface JSONReply<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
}

export async function jsonCall<T = Record<string, unknown>>(
  server: CapstanServer,
  req: {
    readonly method: string;
    readonly path: string;
    readonly body?: unknown;
    readonly contentType?: string;
  },
): Promise<JSONReply<T>> {
  const res = await fetch(`${server.url}${req.path}`, {
    method: req.method,
    headers: {
      authorization: `Bearer ${adminToken(server)}`,
      'content-type': req.contentType ?? 'application/json',
    },
    ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}
