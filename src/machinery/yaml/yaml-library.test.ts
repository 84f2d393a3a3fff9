import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { yamlLibrary } from './yaml-library.js';

const srcRoot = fileURLToPath(new URL('../..', import.meta.url));

/** `import … from 'yaml'` that brings values (not `import type`): the bundle would require it at load. */
const valueImport = /^\s*import\s+(?!type\b)[^;]*?from\s+['"]yaml(?:\/[^'"]*)?['"]/m;

describe('yamlLibrary', () => {
  it('is the only way the sources load the yaml package, so a start that reads no YAML skips it', async () => {
    const offenders: string[] = [];
    let scanned = 0;
    for (const entry of await readdir(srcRoot, { recursive: true, withFileTypes: true })) {
      const name = entry.name;
      // npm test's copy of the checkout links each source file rather than copying it.
      if (!(entry.isFile() || entry.isSymbolicLink()) || !/\.tsx?$/.test(name) || name.endsWith('.test.ts'))
        continue;
      const path = join(entry.parentPath, name);
      scanned++;
      if (valueImport.test(await readFile(path, 'utf8'))) offenders.push(relative(srcRoot, path));
    }
    assert.ok(scanned > 500, `only ${scanned} source files found under ${srcRoot}`);
    // A static import made every bin/capstan start load it: ~37 ms of a ~400 ms start.
    assert.deepEqual(offenders, []);
  });

  it('loads the package once, on first use', () => {
    const first = yamlLibrary();
    assert.equal(yamlLibrary(), first);
    assert.deepEqual(first.parse('a: [1, "b"]'), { a: [1, 'b'] });
  });

  it('catches a value import and lets a type import pass', () => {
    assert.match("import { parse } from 'yaml';", valueImport);
    assert.match("import * as Y from 'yaml/util';", valueImport);
    assert.doesNotMatch("import type { Document } from 'yaml';", valueImport);
    assert.doesNotMatch("import { x } from 'yaml-body.js';", valueImport);
  });
});
