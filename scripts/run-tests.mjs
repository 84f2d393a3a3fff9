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
