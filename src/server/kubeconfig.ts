// The admin kubeconfig Capstan writes (--kubeconfig-out): one cluster with the CA embedded, one
// user with the admin bearer token. Written as YAML by hand: every scalar is a JSON string, which
// YAML reads as a double-quoted scalar, so no YAML library is loaded at start.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface KubeConfig {
  readonly apiVersion: 'v1';
  readonly kind: 'Config';
  readonly clusters: readonly {
    name: string;
    cluster: { server: string; 'certificate-authority-data'?: string };
  }[];
  readonly users: readonly { name: string; user: { token: string } }[];
  readonly contexts: readonly {
    name: string;
    context: { cluster: string; user: string; namespace: string };
  }[];
  readonly 'current-context': string;
}

export function adminKubeConfig(opts: {
  server: string;
  caPem?: string;
  token: string;
  name?: string;
}): KubeConfig {
  const name = opts.name ?? 'capstan';
  const cluster =
    opts.caPem === undefined
      ? { server: opts.server }
      : { server: opts.server, 'certificate-authority-data': Buffer.from(opts.caPem).toString('base64') };
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    users: [{ name: `${name}-admin`, user: { token: opts.token } }],
    contexts: [{ name, context: { cluster: name, user: `${name}-admin`, namespace: 'default' } }],
    'current-context': name,
  };
}

const q = (s: string): string => JSON.stringify(s);

function entries(obj: Readonly<Record<string, string>>, indent: string): string {
  return Object.entries(obj)
    .map(([k, v]) => `${indent}${k}: ${q(v)}\n`)
    .join('');
}

export function kubeConfigYaml(kc: KubeConfig): string {
  let out = `apiVersion: ${q(kc.apiVersion)}\nkind: ${q(kc.kind)}\nclusters:\n`;
  for (const c of kc.clusters) out += `- name: ${q(c.name)}\n  cluster:\n${entries(c.cluster, '    ')}`;
  out += 'users:\n';
  for (const u of kc.users) out += `- name: ${q(u.name)}\n  user:\n${entries(u.user, '    ')}`;
  out += 'contexts:\n';
  for (const c of kc.contexts) out += `- name: ${q(c.name)}\n  context:\n${entries(c.context, '    ')}`;
  return `${out}current-context: ${q(kc['current-context'])}\n`;
}

/** Writes the kubeconfig with mode 0600 (it holds a token), replacing any file there atomically. */
export async function writeKubeConfig(path: string, kc: KubeConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, kubeConfigYaml(kc), { mode: 0o600 });
  await rename(tmp, path);
}
