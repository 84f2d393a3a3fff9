// Loads a CommonJS bundle through a V8 code cache kept beside it, so a start skips parsing and
// compiling the bundle (2.4 MB) and the functions the previous start ran (Node 20 has no
// module.enableCompileCache). The cache file starts with the SHA-1 of the source it was made from:
// V8 checks only the source's length, so a rebuilt bundle of the same length must not reuse it.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname } from 'node:path';
import { constants, Script } from 'node:vm';

const digestBytes = 20;

export interface CachedModule {
  /** What the bundle assigned to module.exports. */
  readonly exports: Record<string, unknown>;
  /** Whether V8 took the cache this load (false: none, another source, or V8 refused it). */
  readonly cacheUsed: boolean;
  /**
   * Writes the cache (code compiled so far included) unless this load used a good one. Best
   * effort: a read-only install just runs without a cache.
   */
  save(): void;
}

function readCache(cachePath: string, digest: Buffer): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(cachePath);
  } catch {
    return undefined;
  }
  return file.subarray(0, digestBytes).equals(digest) ? file.subarray(digestBytes) : undefined;
}

/** Runs the CommonJS file at `bundlePath` as a module, with its cache at `${bundlePath}.v8cache`. */
export function loadWithCodeCache(bundlePath: string): CachedModule {
  const bytes = readFileSync(bundlePath);
  const digest = createHash('sha1').update(bytes).digest();
  const cachePath = `${bundlePath}.v8cache`;
  const cachedData = readCache(cachePath, digest);
  const script = new Script(Module.wrap(bytes.toString('utf8')), {
    filename: bundlePath,
    // A script has no loader for import(): borrow the main context's. That holds only when the
    // script compiles from source (Node 20 drops it for one made from cached data), so the bundle
    // requires its packages instead of importing them (scripts/build.mjs warns about any import()).
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(
    module.exports,
    module.exports,
    createRequire(bundlePath),
    module,
    bundlePath,
    dirname(bundlePath),
  );
  return {
    get exports() {
      return module.exports;
    },
    cacheUsed,
    save() {
      if (cacheUsed) return;
      const aside = `${cachePath}.${process.pid}.tmp`;
      try {
        writeFileSync(aside, Buffer.concat([digest, script.createCachedData()]));
        renameSync(aside, cachePath);
      } catch {
        rmSync(aside, { force: true }); // no cache this time; the next start compiles again
      }
    },
  };
}
