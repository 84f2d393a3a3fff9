// A small client of a running server for the `capstan` test API subcommands: reads a kubeconfig
// (its current context's cluster and user: CA, bearer token or token file, client certificate) and
// sends JSON requests with what it says.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';
import { sendRaw, type ClientTarget } from '../../server/test-api/http-client.js';

export type { ClientTarget };

export interface ClientAnswer {
  readonly code: number;
  readonly body: unknown;
}

/** The kubeconfig to read: the flag's, else the first of $KUBECONFIG, else ~/.kube/config. */
export function kubeconfigPath(flag: string, env: Readonly<Record<string, string | undefined>>): string {
  if (flag !== '') return flag;
  const fromEnv = (env['KUBECONFIG'] ?? '').split(':').find((p) => p !== '');
  return fromEnv ?? join(homedir(), '.kube', 'config');
}

type Named = { name?: unknown } & Record<string, unknown>;

/** The `key` object of the entry called `name` in a kubeconfig list (`clusters`, `users`, `contexts`). */
function entry(list: unknown, name: unknown, key: string): Record<string, unknown> {
  const found = Array.isArray(list) ? (list as Named[]).find((e) => e.name === name) : undefined;
  const value = found?.[key];
  if (typeof value !== 'object' || value === null)
    throw new Error(`kubeconfig: no ${key} ${JSON.stringify(name)}`);
  return value as Record<string, unknown>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Bytes given inline (`…-data`, base64) or by a file path relative to the kubeconfig. */
async function material(
  obj: Record<string, unknown>,
  key: string,
  base: string,
): Promise<Buffer | undefined> {
  const data = str(obj[`${key}-data`]);
  if (data !== undefined) return Buffer.from(data, 'base64');
  const file = str(obj[key]);
  if (file === undefined) return undefined;
  return readFile(isAbsolute(file) ? file : join(base, file));
}

export async function loadTarget(path: string): Promise<ClientTarget> {
  const doc = yamlLibrary().parse(await readFile(path, 'utf8')) as Record<string, unknown> | null;
  if (doc === null || typeof doc !== 'object') throw new Error(`kubeconfig ${path}: empty`);
  const base = dirname(path);
  const current = doc['current-context'];
  const context = entry(doc['contexts'], current, 'context');
  const cluster = entry(doc['clusters'], context['cluster'], 'cluster');
  const user = context['user'] === undefined ? {} : entry(doc['users'], context['user'], 'user');
  const server = str(cluster['server']);
  if (server === undefined) throw new Error(`kubeconfig ${path}: the cluster has no server`);
  const tokenFile = str(user['tokenFile']);
  const token =
    str(user['token']) ??
    (tokenFile === undefined ? undefined : (await readFile(join(base, tokenFile), 'utf8')).trim());
  const [ca, cert, key] = await Promise.all([
    material(cluster, 'certificate-authority', base),
    material(user, 'client-certificate', base),
    material(user, 'client-key', base),
  ]);
  return {
    server: server.replace(/\/+$/, ''),
    insecure: cluster['insecure-skip-tls-verify'] === true,
    ...(ca === undefined ? {} : { ca }),
    ...(token === undefined ? {} : { token }),
    ...(cert === undefined ? {} : { cert }),
    ...(key === undefined ? {} : { key }),
  };
}

/** Sends one request with a JSON body (if any); resolves with the code and the parsed JSON answer. */
export async function send(
  t: ClientTarget,
  call: { readonly method: string; readonly path: string; readonly body?: unknown },
): Promise<ClientAnswer> {
  const { method, path, body } = call;
  const answer = await sendRaw(t, {
    method,
    path,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }),
  });
  const text = answer.body.toString('utf8');
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    // not JSON: kept as text
  }
  return { code: answer.code, body: parsed };
}
