import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchingTolerations, minTolerationMs } from './tolerations.js';

const unreachable = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const custom = { key: 'example.com/x', value: 'y', effect: 'NoExecute' };

describe('tolerations of NoExecute taints', () => {
  it('needs a toleration for every taint', () => {
    const tolerateUnreachable = {
      key: unreachable.key,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    };
    assert.deepEqual(matchingTolerations([unreachable], [tolerateUnreachable]), {
      allTolerated: true,
      used: [tolerateUnreachable],
    });
    assert.equal(matchingTolerations([unreachable, custom], [tolerateUnreachable]).allTolerated, false);
    assert.equal(matchingTolerations([custom], [{ operator: 'Exists' }]).allTolerated, true);
    assert.equal(matchingTolerations([custom], [{ key: 'example.com/x', value: 'z' }]).allTolerated, false);
  });

  it('holds for the shortest tolerationSeconds, forever without any', () => {
    assert.equal(minTolerationMs([{ tolerationSeconds: 300 }, { tolerationSeconds: 30 }, {}]), 30_000);
    assert.equal(minTolerationMs([{}]), -1);
    assert.equal(minTolerationMs([{ tolerationSeconds: -5 }]), 0);
    assert.equal(minTolerationMs([]), 0);
  });
});
