#!/usr/bin/env node
// Builds dist/: one esbuild bundle per entry (the `capstan` command and the library's index), with
// npm packages left as imports, then the type declarations from tsc.
//   node scripts/build.mjs            bundle + declarations (`npm run build`)
//   node scripts/build.mjs --bundle   bundle only: what bin/capstan runs when dist/ is stale (~1 s)
// Why a bundle: Node loads one file in a few milliseconds where tsc's output is ~450 files, each
// resolved, read and compiled on its own (start to /readyz ~390–780 ms bundled vs ~590–1100 ms).
// Code splitting keeps dynamic imports lazy: without it esbuild would inline the etcd3 backend and
// hoist its protobufjs import to the top of the bundle.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const bundleOnly = process.argv.includes('--bundle');

const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/cmd/capstan.ts', 'src/index.ts'],
  outdir: 'dist',
  outbase: 'src',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  chunkNames: 'chunks/[name]-[hash]',
  write: false,
  logLevel: 'warning',
});

// Several `npm start`s may find dist/ stale at once: each file is written aside and renamed into
// place, chunks before the entries that import them, so a starting process never reads half a file.
const outputs = [...result.outputFiles].sort((a, b) => rank(a.path) - rank(b.path));
function rank(path) {
  const rel = relative(dist, path);
  return (rel.startsWith('chunks') ? 0 : 2) + (rel.endsWith('.map') ? 0 : 1);
}
for (const file of outputs) {
  await mkdir(dirname(file.path), { recursive: true });
  const aside = `${file.path}.${process.pid}.tmp`;
  await writeFile(aside, file.contents);
  await rename(aside, file.path);
}
await removeStaleChunks(new Set(outputs.map((f) => f.path)));

if (!bundleOnly) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [tsc, '-p', 'tsconfig.build.json', '--emitDeclarationOnly'];
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// Chunks from earlier builds have other hashes; a running server may still be about to import one
// lazily, so only chunks older than an hour go.
async function removeStaleChunks(keep) {
  const dir = join(dist, 'chunks');
  const hourAgo = Date.now() - 3600_000;
  for (const name of await readdir(dir).catch(() => [])) {
    const path = join(dir, name);
    if (keep.has(path)) continue;
    const s = await stat(path).catch(() => undefined);
    if (s !== undefined && s.mtimeMs < hourAgo) await rm(path, { force: true });
  }
}
