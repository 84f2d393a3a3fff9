// Manifests as envtest reads them: files, or the .yaml, .yml and .json files of a directory (not its
// subdirectories); each file holds one or more YAML documents (JSON is YAML), and a List document
// stands for its items. Only the objects of the kinds asked for are kept.
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { KubeObject } from '../../api/meta.js';
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';

const manifestExtensions = new Set(['.yaml', '.yml', '.json']);

function objectsIn(text: string, file: string): KubeObject[] {
  const docs = yamlLibrary().parseAllDocuments(text);
  const out: KubeObject[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message ?? 'invalid YAML'}`);
    const value = doc.toJS() as unknown;
    if (typeof value !== 'object' || value === null) continue;
    const obj = value as KubeObject & { items?: unknown };
    const list = obj.kind?.endsWith('List') === true && Array.isArray(obj.items);
    out.push(...(list ? (obj.items as KubeObject[]) : [obj]));
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

/** The objects of `kinds` in the manifests at `paths`; a missing path is an error when asked. */
export async function readManifests(
  paths: readonly string[],
  o: { readonly kinds: ReadonlySet<string>; readonly errorIfPathMissing: boolean },
): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const path of paths)
    for (const file of await filesOf(path, o.errorIfPathMissing))
      for (const obj of objectsIn(await readFile(file, 'utf8'), file))
        if (o.kinds.has(obj.kind ?? '')) out.push(obj);
  return out;
}
