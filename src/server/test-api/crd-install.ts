// envtest's CRDInstallOptions for Capstan: CustomResourceDefinitions read from manifest files and
// directories, or given as objects, created (or updated, when they exist) through the API as the
// admin, then waited for as envtest's WaitForCRDs waits: until each is Established and discovery
// lists its resource in every served version, so that a test may use them at once.
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { KubeObject } from '../../api/meta.js';
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';
import { sendRaw, type ClientTarget } from './http-client.js';

export interface CRDInstallOptions {
  /**
   * Manifest files, or directories whose .yaml, .yml and .json files are read (not their
   * subdirectories, as envtest); documents of other kinds are skipped.
   */
  readonly paths?: readonly string[];
  /** CustomResourceDefinitions as objects (apiextensions.k8s.io/v1). */
  readonly objects?: readonly KubeObject[];
  /** A path that does not exist is an error (the default; envtest's ErrorIfPathMissing). */
  readonly errorIfPathMissing?: boolean;
  /** How long to wait for the CRDs to be served (default 10 s). */
  readonly timeoutMs?: number;
}

interface CRD extends KubeObject {
  spec?: { group?: string; names?: { plural?: string }; versions?: { name?: string; served?: boolean }[] };
  status?: { conditions?: { type?: string; status?: string; message?: string }[] };
}

const manifestExtensions = new Set(['.yaml', '.yml', '.json']);
const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** The CRDs of one manifest: its documents, and the items of List documents. */
function crdsIn(text: string, file: string): CRD[] {
  const docs = yamlLibrary().parseAllDocuments(text);
  const out: CRD[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message ?? 'invalid YAML'}`);
    const value = doc.toJS() as unknown;
    if (typeof value !== 'object' || value === null) continue;
    const obj = value as KubeObject & { items?: unknown };
    const items = obj.kind?.endsWith('List') === true && Array.isArray(obj.items) ? obj.items : [obj];
    for (const item of items as KubeObject[]) if (item.kind === 'CustomResourceDefinition') out.push(item);
  }
  return out;
}

async function filesOf(path: string, errorIfMissing: boolean): Promise<string[]> {
  const info = await stat(path).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !errorIfMissing) return undefined;
    throw err;
  });
  if (info === undefined) return [];
  if (!info.isDirectory()) return [path];
  const names = (await readdir(path)).filter((n) => manifestExtensions.has(extname(n))).sort();
  const files: string[] = [];
  for (const name of names) if (!(await stat(join(path, name))).isDirectory()) files.push(join(path, name));
  return files;
}

async function call(
  t: ClientTarget,
  req: { method: string; path: string; body?: unknown },
): Promise<{ code: number; obj: CRD }> {
  const res = await sendRaw(t, {
    method: req.method,
    path: req.path,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    ...(req.body === undefined ? {} : { body: Buffer.from(JSON.stringify(req.body)) }),
  });
  return { code: res.code, obj: JSON.parse(res.body.toString('utf8')) as CRD };
}

/** Creates the CRD, or updates the one of its name with it. */
async function apply(t: ClientTarget, crd: CRD): Promise<void> {
  const name = crd.metadata?.name ?? '';
  let res = await call(t, { method: 'POST', path: crdsPath, body: crd });
  if (res.code === 409) {
    const current = await call(t, { method: 'GET', path: `${crdsPath}/${name}` });
    const resourceVersion = current.obj.metadata?.resourceVersion;
    res = await call(t, {
      method: 'PUT',
      path: `${crdsPath}/${name}`,
      body: {
        ...crd,
        metadata: { ...crd.metadata, resourceVersion },
      },
    });
  }
  if (res.code >= 300)
    throw new Error(
      `installing CustomResourceDefinition ${JSON.stringify(name)}: ${String(res.obj['message'])}`,
    );
}

/** Whether the CRD is Established and every served version lists its resource. */
async function served(t: ClientTarget, crd: CRD): Promise<boolean> {
  const current = await call(t, { method: 'GET', path: `${crdsPath}/${crd.metadata?.name ?? ''}` });
  const established = current.obj.status?.conditions?.some(
    (c) => c.type === 'Established' && c.status === 'True',
  );
  if (established !== true) return false;
  const { group = '', names, versions = [] } = current.obj.spec ?? {};
  for (const v of versions.filter((x) => x.served === true)) {
    const list = await call(t, { method: 'GET', path: `/apis/${group}/${v.name ?? ''}` });
    const resources = (list.obj['resources'] ?? []) as { name?: string }[];
    if (list.code !== 200 || !resources.some((r) => r.name === names?.plural)) return false;
  }
  return true;
}

/** Installs the CRDs and waits until they are served; resolves with their names. */
export async function installCRDs(t: ClientTarget, o: CRDInstallOptions): Promise<string[]> {
  const crds: CRD[] = [...(o.objects ?? [])];
  for (const path of o.paths ?? [])
    for (const file of await filesOf(path, o.errorIfPathMissing ?? true))
      crds.push(...crdsIn(await readFile(file, 'utf8'), file));
  for (const crd of crds) await apply(t, crd);
  const deadline = Date.now() + (o.timeoutMs ?? 10_000);
  for (const crd of crds) {
    while (!(await served(t, crd))) {
      if (Date.now() > deadline)
        throw new Error(
          `CustomResourceDefinition ${JSON.stringify(crd.metadata?.name)} was not served in time`,
        );
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  return crds.map((c) => c.metadata?.name ?? '');
}
