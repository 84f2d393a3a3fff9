import assert from 'node:assert/strict';
import { it } from 'node:test';
import { findCompactRevision } from './compact-revision.js';
import { supportsRequestProgress } from './etcd-version.js';

it('trusts progress requests from etcd 3.4.31+, 3.5.13+ and later minors only (as kube)', () => {
  const cases: [string, boolean][] = [
    ['3.4.23', false],
    ['3.4.30', false],
    ['3.4.31', true],
    ['3.5.0', false],
    ['3.5.12', false],
    ['3.5.13', true],
    ['3.6.0', true],
    ['4.0.0', true],
    ['garbage', false],
  ];
  for (const [v, want] of cases) assert.equal(supportsRequestProgress(v), want, v);
});

it('findCompactRevision bisects to the lowest readable revision', async () => {
  for (const [compacted, current, known] of [
    [0, 1, 0],
    [0, 500, 0],
    [37, 500, 0],
    [37, 500, 20],
    [37, 500, 37],
    [499, 500, 0],
    [500, 500, 0],
  ] as const) {
    let probes = 0;
    const probe = (rev: number): Promise<boolean> => {
      probes++;
      return Promise.resolve(rev < compacted);
    };
    assert.equal(await findCompactRevision({ probe, current, known }), compacted, `compacted ${compacted}`);
    assert.ok(probes <= 12, `${probes} probes`);
  }
});
