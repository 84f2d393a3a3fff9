// Continue tokens in kube's format (k8s.io/apiserver/pkg/storage/continue.go): base64url of
// {"v":"meta.k8s.io/v1","rv":N,"start":"<key after the list prefix>"}.
import { posix } from 'node:path';

interface TokenJson {
  v?: unknown;
  rv?: unknown;
  start?: unknown;
}

export class InvalidContinueError extends Error {
  constructor(detail: string) {
    super(`continue key is not valid: ${detail}`);
    this.name = 'InvalidContinueError';
  }
}

export function encodeContinue(key: string, keyPrefix: string, resourceVersion: number): string {
  if (!key.startsWith(keyPrefix) || key === keyPrefix) {
    throw new Error('unable to encode next field: the key and key prefix do not match');
  }
  const token = { v: 'meta.k8s.io/v1', rv: resourceVersion, start: key.slice(keyPrefix.length) };
  return Buffer.from(JSON.stringify(token), 'utf8').toString('base64url');
}

/** Returns the full key to start from and the token's revision (-1: continue at the latest). */
export function decodeContinue(token: string, keyPrefix: string): { fromKey: string; rv: number } {
  if (!/^[A-Za-z0-9_-]*$/.test(token)) throw new InvalidContinueError('illegal base64 data');
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (err) {
    throw new InvalidContinueError((err as Error).message);
  }
  if (typeof raw !== 'object' || raw === null) throw new InvalidContinueError('not an object');
  const parsed = raw as TokenJson;
  if (parsed.v !== 'meta.k8s.io/v1') {
    throw new InvalidContinueError(`server does not recognize this encoded version ${String(parsed.v)}`);
  }
  const rv = parsed.rv;
  if (typeof rv !== 'number' || !Number.isInteger(rv) || rv === 0 || rv < -1) {
    throw new InvalidContinueError('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  const start = parsed.start;
  if (typeof start !== 'string' || start === '') {
    throw new InvalidContinueError('encoded start key empty (version meta.k8s.io/v1)');
  }
  // Path traversal guard: the cleaned key must equal the key, so it cannot climb above keyPrefix.
  const rooted = start.startsWith('/') ? start : `/${start}`;
  const cleaned = posix.normalize(rooted);
  if (cleaned !== rooted || (rooted.length > 1 && rooted.endsWith('/')) || rooted.split('/').includes('..')) {
    throw new InvalidContinueError(start);
  }
  return { fromKey: keyPrefix + rooted.slice(1), rv };
}
