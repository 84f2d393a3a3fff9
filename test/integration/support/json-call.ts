// A JSON request to an in-process server over plain HTTP as the admin, for integration tests that
// read a status, a decoded body and the warnings.
import type { CapstanServer } from '../../../src/index.js';
import { adminToken } from './https-call.js';

export interface JSONReply<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
  /** The Warning header, '' without one. */
  readonly warning: string;
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
  const body = (await res.json()) as T;
  return { status: res.status, body, warning: res.headers.get('warning') ?? '' };
}

/** A JSON request whose PATCH sends a merge patch. */
export function mergePatchCall<T = Record<string, unknown>>(
  server: CapstanServer,
  req: { readonly method: string; readonly path: string; readonly body?: unknown },
): Promise<JSONReply<T>> {
  const contentType = req.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
  return jsonCall<T>(server, { ...req, contentType });
}
