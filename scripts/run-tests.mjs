#!/usr/bin/env node
// Runs every *.test.ts under src/, test/ and examples/ with node's test runner through tsx.
// Node 20's `--test` takes file paths, not globs, so we collect them here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['src', 'test', 'examples'];
const files = [];
const walk = (dir) => {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.ts')) files.push(path);
  }
};
for (const root of roots) {
  if (root.endsWith('.test.ts')) files.push(root);
  else walk(root);
}
files.sort();
// The longest files start first, so that none of them is left running alone at the end (with three
// files at a time, a minute-long file started last adds its minute to the run).
const slowFirst = [
  'test/e2e/package-install.test.ts',
  'test/e2e/replicas.test.ts',
  'src/storage/kv-store/kv-store.conformance.test.ts',
  'test/integration/bad-input-',
  'test/e2e/kubectl-encryption-rotation.test.ts',
  'test/robustness/',
];
const rank = (f) => {
  const i = slowFirst.findIndex((prefix) => f.startsWith(prefix));
  return i < 0 ? slowFirst.length : i;
};
files.sort((a, b) => rank(a) - rank(b));
if (files.length === 0) {
  console.error('no test files found under', roots.join(', '));
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=3', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
