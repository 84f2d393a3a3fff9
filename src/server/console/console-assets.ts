// The console's static files: read from dist/console (built by `npm run build` or bin/capstan's
// rebundle), or, when the server runs from its TypeScript sources, bundled in memory with esbuild on
// the first request (never at start: the server's start stays as fast without the console).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleBuildOptions, consoleIndexHtml } from './console-build.js';

export interface ConsoleAsset {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
  /** A hashed name: its content never changes. */
  readonly immutable: boolean;
}

/** Paths relative to /console/ (`index.html`, `assets/main-XXXX.js`). */
export type ConsoleAssets = ReadonlyMap<string, ConsoleAsset>;

const types: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

function asset(path: string, body: Buffer): ConsoleAsset {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return {
    body,
    type: types[extname(path)] ?? 'application/octet-stream',
    etag,
    immutable: path.startsWith('assets/'),
  };
}

const here = fileURLToPath(import.meta.url);
// The TypeScript itself, or compiled file by file beside it (the test runner's copy of the tree).
const fromSources = here.endsWith('.ts') || existsSync(here.replace(/\.js$/, '.ts'));

/** dist/console beside the running bundle (dist/index.js, dist/cmd/capstan.cjs or a chunk). */
function builtDir(): string | undefined {
  for (const up of ['.', '..', '../..']) {
    const dir = join(here, '..', up, 'console');
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return undefined;
}

async function readBuilt(dir: string): Promise<ConsoleAssets> {
  const out = new Map<string, ConsoleAsset>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const full = join(e.parentPath, e.name);
    const path = relative(dir, full).split(sep).join('/');
    out.set(path, asset(path, await readFile(full)));
  }
  return out;
}

interface EsbuildModule {
  build(o: Record<string, unknown>): Promise<{ outputFiles: { path: string; contents: Uint8Array }[] }>;
}

/** Bundles src/console with esbuild (a devDependency: only a checkout runs from sources). */
async function buildFromSources(): Promise<ConsoleAssets> {
  const root = join(here, '..', '..', '..', '..');
  const esbuild = createRequire(here)('esbuild') as EsbuildModule;
  const outdir = join(root, 'dist', 'console', 'assets');
  const result = await esbuild.build({ ...consoleBuildOptions(root), outdir, write: false });
  const out = new Map<string, ConsoleAsset>();
  const names: string[] = [];
  for (const f of result.outputFiles) {
    const path = `assets/${relative(outdir, f.path).split(sep).join('/')}`;
    names.push(path);
    out.set(path, asset(path, Buffer.from(f.contents)));
  }
  out.set('index.html', asset('index.html', Buffer.from(consoleIndexHtml(names))));
  return out;
}

/** The console's files: built ones when the server runs from a bundle, else a build of the sources. */
export function loadConsoleAssets(): Promise<ConsoleAssets> {
  if (fromSources) return buildFromSources();
  const dir = builtDir();
  if (dir === undefined)
    return Promise.reject(new Error('the console was not built (dist/console is missing)'));
  return readBuilt(dir);
}
