// Benchmarks measure Capstan as it runs for its users: bundled by esbuild, as `npm run build` and
// bin/capstan bundle it, not through tsx. tsx compiles each source file as it loads and keeps every
// function's name with a helper call (`__name`) wherever a closure is made, ~1–2 % of a Pod create's
// CPU, and its loader adds tens of MB to a process's RSS. The SQLite writer thread's module is
// bundled beside the entry, where the backend looks for it (`sqlite-writer.js`).
import { fileURLToPath } from 'node:url';

const writerWorker = new URL('../src/storage/backends/sqlite/writer-worker.ts', import.meta.url);

/**
 * Bundles `entry` (packages stay imports) into `outDir` as `<name>.js`, with the writer thread's
 * module beside it; returns the bundle's URL.
 */
export async function bundleWithWriter(entry: URL, outDir: URL, name: string): Promise<URL> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [
      { in: fileURLToPath(entry), out: name },
      { in: fileURLToPath(writerWorker), out: 'sqlite-writer' },
    ],
    outdir: fileURLToPath(outDir),
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  return new URL(`${name}.js`, outDir);
}

type StartCapstan = typeof import('../src/index.js').startCapstan;

/**
 * startCapstan of the library bundled into dist/bench/capstan/ (as `npm run build` makes
 * dist/index.js), else, with a note printed, of the sources through tsx.
 */
export async function bundledStartCapstan(): Promise<StartCapstan> {
  try {
    const source = new URL('../src/index.ts', import.meta.url);
    const bundle = await bundleWithWriter(
      source,
      new URL('../dist/bench/capstan/', import.meta.url),
      'index',
    );
    return ((await import(bundle.href)) as { startCapstan: StartCapstan }).startCapstan;
  } catch (err) {
    console.log(`\n(Capstan runs through tsx, which costs it CPU: bundling failed: ${String(err)})`);
    return (await import('../src/index.js')).startCapstan;
  }
}
