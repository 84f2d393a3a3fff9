import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PodStatus } from '../../../api/core/v1/pod-status.js';
import { podsToDelete } from './pods-to-delete.js';

const pod = (name: string, phase: string, ready: boolean): Pod => ({
  metadata: { name },
  spec: { nodeName: 'node-1', containers: [] },
  // A phase outside PodPhase, as a client may write it to pods/status.
  status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } as PodStatus,
});

describe('pods to delete', () => {
  it('ranks a phase named like an Object.prototype member as an unknown phase, before Running', () => {
    for (const phase of ['constructor', 'toString', '__proto__']) {
      const odd = pod('odd', phase, true);
      const running = pod('running', 'Running', false);
      assert.deepEqual(
        podsToDelete([running, odd], 1).map((p) => p.metadata?.name),
        ['odd'],
        phase,
      );
    }
  });
});
