#!/usr/bin/env node
// Builds dist/: the library (src/index.ts) as an ES module bundle, the `capstan` command as a
// CommonJS bundle with its launcher, and the type declarations from tsc.
//   node scripts/build.mjs            bundles + declarations (`npm run build`)
//   node scripts/build.mjs --bundle   bundles only: what bin/capstan runs when dist/ is stale (~1 s)
// Why bundles: Node loads one file in a few milliseconds where tsc's output is ~450 files, each
// resolved, read and compiled on its own (start to /readyz ~390–780 ms bundled vs ~590–1100 ms).
// The library keeps npm packages as imports and splits its dynamic imports into chunks, so the
// etcd3 backend and its protobufjs import load only when used.
// The command is CommonJS because only a script, not an ES module, can be compiled from a V8 code
// cache on Node 20 (src/cmd/code-cache.ts): that halves the compile and warm-up part of a start.
// Its dynamic imports stay lazy inside the one file; @noble/ciphers ships only ES modules, which
// Node 20 cannot require(), so it is bundled in; import.meta.url becomes the bundle's file URL.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const bundleOnly = process.argv.includes('--bundle');
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  write: false,
  logLevel: 'warning',
};

const library = await build({
  ...common,
  // The SQLite backend's writer thread is a file of its own, which the library and the command start.
  entryPoints: [
    { in: 'src/index.ts', out: 'index' },
    { in: 'src/storage/backends/sqlite/writer-worker.ts', out: 'sqlite-writer' },
  ],
  outdir: 'dist',
  outbase: 'src',
  splitting: true,
  format: 'esm',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
});
const command = await build({
  ...common,
  entryPoints: ['src/cmd/capstan.ts', 'src/cmd/launch.ts'],
  outdir: 'dist/cmd',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // Bundled, so their code comes from the V8 code cache too: @noble/ciphers, better-sqlite3's
  // JavaScript (its addon is loaded by path: src/storage/backends/sqlite/open-database.ts), and
  // jose (ES modules only: bundled, the command never require()s an ES module).
  external: Object.keys(pkg.dependencies).filter(
    (name) => !['@noble/ciphers', 'better-sqlite3', 'jose'].includes(name),
  ),
  define: { 'import.meta.url': '__capstanModuleURL' },
  minifyWhitespace: true,
  minifySyntax: true,
  banner: { js: 'const __capstanModuleURL = require("node:url").pathToFileURL(__filename).href;' },
});

// The command loads fastest as a one-byte string; a non-ASCII character (a literal µ, say) turns
// the whole 1.2 MB source into a two-byte string, slower to hash, compile and keep.
// And it runs from a V8 code cache, where import() has no loader to call: a package it needs later
// must be required (createRequire), as yaml and prom-client are.
for (const file of command.outputFiles) {
  if (!file.path.endsWith('.cjs')) continue;
  if (file.contents.some((b) => b > 0x7f))
    console.warn(`build: ${relative(root, file.path)} is not ASCII-only; escape the character in the source`);
  const dynamic = /\bimport\(\s*["'][^"']+["']\s*\)/.exec(file.text);
  if (dynamic !== null)
    console.warn(`build: ${relative(root, file.path)} keeps ${dynamic[0]}; require it instead`);
}

// Several `npm start`s may find dist/ stale at once: each file is written aside and renamed into
// place, chunks before the entries that import them, so a starting process never reads half a file.
const outputs = [...library.outputFiles, ...command.outputFiles].sort((a, b) => rank(a.path) - rank(b.path));
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
await buildConsole();

if (!bundleOnly) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  // --noCheck: the declarations without a type check of their own (the same files, in a third of
  // the time); `npm run typecheck` (and so `npm test`) checks the sources.
  const args = [tsc, '-p', 'tsconfig.build.json', '--emitDeclarationOnly', '--noCheck', '--listEmittedFiles'];
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const emitted = new Set();
  for (const line of r.stdout.toString().split('\n')) {
    if (line.startsWith('TSFILE: ')) emitted.add(line.slice('TSFILE: '.length).trim());
    else if (line.trim() !== '') console.log(line);
  }
  if (r.status !== 0) process.exit(r.status ?? 1);
  await removeStaleDeclarations(emitted);
}

// The web console (src/console) as static files in dist/console: hashed assets and the page naming
// them, as src/server/console/console-build.ts describes (the server builds the same from sources).
async function buildConsole() {
  const outdir = join(dist, 'console', 'assets');
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/console/main.tsx'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    entryNames: '[name]-[hash]',
    logLevel: 'warning',
    outdir,
    write: false,
  });
  await rm(join(dist, 'console'), { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const names = [];
  for (const f of result.outputFiles) {
    names.push(`assets/${relative(outdir, f.path)}`);
    await writeFile(f.path, f.contents);
  }
  const css = names.filter((a) => a.endsWith('.css')).map((a) => `<link rel="stylesheet" href="${a}">`);
  const js = names.filter((a) => a.endsWith('.js')).map((a) => `<script type="module" src="${a}"></script>`);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><title>Capstan console</title>
${css.join('\n')}
</head><body><div id="app"></div>
${js.join('\n')}
</body></html>
`;
  await writeFile(join(dist, 'console', 'index.html'), html);
}

// Declarations of sources since removed or excluded would otherwise stay in dist/ (and the package).
async function removeStaleDeclarations(emitted) {
  const entries = await readdir(dist, { recursive: true, withFileTypes: true });
  for (const e of entries) {
    const path = join(e.parentPath, e.name);
    if (e.isFile() && e.name.endsWith('.d.ts') && !emitted.has(path)) await rm(path, { force: true });
  }
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
