import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

// Each load runs in its own process: within one process V8's compilation cache answers a second
// compile of the same source before any code cache is consulted.
const loader = new URL('./code-cache.ts', import.meta.url).href;
function load(bundle: string, opts: { save?: boolean } = {}): { exports: unknown; cacheUsed: boolean } {
  const script =
    `import { loadWithCodeCache } from ${JSON.stringify(loader)};\n` +
    `const m = loadWithCodeCache(${JSON.stringify(bundle)});\n` +
    (opts.save === true ? 'm.save();\n' : '') +
    'process.stdout.write(JSON.stringify({ exports: m.exports, cacheUsed: m.cacheUsed }));\n';
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
  return JSON.parse(out.toString()) as { exports: unknown; cacheUsed: boolean };
}

// A bundle-like CommonJS file: it requires a builtin, uses its own __filename and exports values.
const source = (answer: number): string =>
  `const { basename } = require('node:path');\n` +
  `function compute(n) { return n * ${String(answer)}; }\n` +
  `module.exports = { file: basename(__filename), value: compute(2) };\n`;

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-code-cache-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('loadWithCodeCache', () => {
  it('runs the file as a CommonJS module, then reuses the cache it saved', () =>
    withDir(async (dir) => {
      const bundle = join(dir, 'bundle.cjs');
      await writeFile(bundle, source(21));
      const first = load(bundle, { save: true });
      assert.deepEqual(first.exports, { file: 'bundle.cjs', value: 42 });
      assert.equal(first.cacheUsed, false);
      const second = load(bundle);
      assert.equal(second.cacheUsed, true);
      assert.deepEqual(second.exports, { file: 'bundle.cjs', value: 42 });
    }));

  it('ignores a cache made from other source of the same length', () =>
    withDir(async (dir) => {
      const bundle = join(dir, 'bundle.cjs');
      await writeFile(bundle, source(21));
      load(bundle, { save: true });
      await writeFile(bundle, source(12)); // same length, other code
      const rebuilt = load(bundle, { save: true });
      assert.equal(rebuilt.cacheUsed, false);
      assert.deepEqual(rebuilt.exports, { file: 'bundle.cjs', value: 24 });
      assert.equal(load(bundle).cacheUsed, true);
    }));

  it('runs without a cache when the cache file is damaged or cannot be written', () =>
    withDir(async (dir) => {
      const bundle = join(dir, 'bundle.cjs');
      await writeFile(bundle, source(21));
      load(bundle, { save: true });
      const cache = await readFile(`${bundle}.v8cache`);
      await writeFile(
        `${bundle}.v8cache`,
        Buffer.concat([cache.subarray(0, 20), Buffer.from('not v8 data')]),
      );
      const damaged = load(bundle);
      assert.equal(damaged.cacheUsed, false);
      assert.deepEqual(damaged.exports, { file: 'bundle.cjs', value: 42 });

      await rm(`${bundle}.v8cache`);
      await mkdir(`${bundle}.v8cache`); // a directory in the way: save cannot write, the load still works
      assert.deepEqual(load(bundle, { save: true }).exports, { file: 'bundle.cjs', value: 42 });
      assert.deepEqual((await readdir(dir)).sort(), ['bundle.cjs', 'bundle.cjs.v8cache']);
    }));
});
