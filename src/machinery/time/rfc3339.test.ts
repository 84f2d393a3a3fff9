import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nowRFC3339, rfc3339 } from './rfc3339.js';

test('timestamps are RFC 3339 in UTC to the second, now included', () => {
  assert.equal(rfc3339(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678))), '2026-01-02T03:04:05Z');
  const before = Math.floor(Date.now() / 1000);
  const now = Date.parse(nowRFC3339()) / 1000;
  assert.ok(now >= before && now <= before + 1);
  assert.match(nowRFC3339(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
});
