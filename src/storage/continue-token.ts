// Continue tokens in kube's format (k8s.io/apiserver/pkg/storage/continue.go): base64url of
// {"v":"meta.k8s.io/v1","rv":N,"start":"<key after the list prefix>"}.
import { posix } from 'node:path';
import { goJSONSyntaxError, goJSONTypeName } from '../machinery/json/go-json-syntax.js';

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

/** The token's members, as Go's json.Unmarshal fills kube's continueToken struct. */
interface Token {
  v: string;
  rv: number;
  start: string;
}

const tokenFields = [
  { name: 'v', type: 'string' },
  { name: 'rv', type: 'int64' },
  { name: 'start', type: 'string' },
] as const;

/** base64.RawURLEncoding.DecodeString's error for a token it refuses, or null. */
function base64Error(token: string): string | null {
  const bad = token.search(/[^A-Za-z0-9_-]/);
  if (bad !== -1) return `illegal base64 data at input byte ${String(bad)}`;
  // A last group of one character holds no whole byte.
  if (token.length % 4 === 1) return `illegal base64 data at input byte ${String(token.length - 1)}`;
  return null;
}

/**
 * The token's JSON read into kube's continueToken as encoding/json reads it: Go's syntax errors;
 * members matched to the struct's fields by name, case-insensitively; null members and unknown
 * ones skipped; the first member of the wrong type reported with Go's UnmarshalTypeError text (a
 * number is shown as JavaScript writes it, where Go quotes its literal: `5.0` shows as 5; and an
 * integer beyond ±2^53, which Go's int64 takes, is refused here as JavaScript cannot hold it).
 */
function tokenOf(bytes: Buffer): Token {
  const syntax = goJSONSyntaxError(bytes);
  if (syntax !== null) throw new InvalidContinueError(syntax);
  const raw: unknown = JSON.parse(bytes.toString('utf8'));
  const token: Token = { v: '', rv: 0, start: '' };
  if (raw === null) return token;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new InvalidContinueError(
      `json: cannot unmarshal ${goJSONTypeName(raw)} into Go value of type storage.continueToken`,
    );
  }
  let typeError: string | undefined;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const field =
      tokenFields.find((f) => f.name === key) ??
      tokenFields.find((f) => f.name.toLowerCase() === key.toLowerCase());
    if (field === undefined || value === null) continue;
    const fits =
      field.type === 'string'
        ? typeof value === 'string'
        : typeof value === 'number' && Number.isSafeInteger(value);
    if (!fits) {
      const shown = typeof value === 'number' ? `number ${String(value)}` : goJSONTypeName(value);
      typeError ??= `json: cannot unmarshal ${shown} into Go struct field continueToken.${field.name} of type ${field.type}`;
      continue;
    }
    (token as unknown as Record<string, unknown>)[field.name] = value;
  }
  if (typeError !== undefined) throw new InvalidContinueError(typeError);
  return token;
}

/**
 * Returns the full key to start from and the token's revision (negative: continue at the latest,
 * as kube's etcd3 store reads any negative revision).
 */
export function decodeContinue(token: string, keyPrefix: string): { fromKey: string; rv: number } {
  const invalidBase64 = base64Error(token);
  if (invalidBase64 !== null) throw new InvalidContinueError(invalidBase64);
  const parsed = tokenOf(Buffer.from(token, 'base64url'));
  if (parsed.v !== 'meta.k8s.io/v1') {
    throw new InvalidContinueError(`server does not recognize this encoded version ${parsed.v}`);
  }
  const rv = parsed.rv;
  if (rv === 0) {
    throw new InvalidContinueError('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  const start = parsed.start;
  if (start === '') {
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
