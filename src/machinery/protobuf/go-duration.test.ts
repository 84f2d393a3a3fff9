import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goDurationString } from './go-duration.js';

test('durations print as Go prints them', () => {
  const cases: [bigint, string][] = [
    [0n, '0s'],
    [1n, '1ns'],
    [999n, '999ns'],
    [1500n, '1.5µs'],
    [1_000_000n, '1ms'],
    [2_500_000n, '2.5ms'],
    [1_000_000_000n, '1s'],
    [1_000_001_000n, '1.000001s'],
    [60_000_000_000n, '1m0s'],
    [90_500_000_000n, '1m30.5s'],
    [3_600_000_000_000n, '1h0m0s'],
    [3_661_000_000_000n, '1h1m1s'],
    [-5_000_000_000n, '-5s'],
    [-1n, '-1ns'],
    [9223372036854775807n, '2562047h47m16.854775807s'],
    [-9223372036854775808n, '-2562047h47m16.854775808s'],
  ];
  for (const [ns, text] of cases) assert.equal(goDurationString(ns), text, String(ns));
});
