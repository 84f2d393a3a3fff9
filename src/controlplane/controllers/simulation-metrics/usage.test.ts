// The usage a simulated container and node report: kwok's defaults, the pod-wide and per-container
// annotations, and the quantities written as metrics-server writes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addUsage, containerUsage, nodeBaseUsage, resourceList } from './usage.js';

describe('simulated usage', () => {
  it('gives a container without annotations kwok’s 1m and 1Mi', () => {
    assert.deepEqual(resourceList(containerUsage(undefined, 'app')), { cpu: '1m', memory: '1Mi' });
    assert.deepEqual(resourceList(containerUsage({}, 'app')), { cpu: '1m', memory: '1Mi' });
  });

  it('takes the pod-wide annotations for every container, a container’s own first', () => {
    const annotations = {
      'capstan.dev/cpu-usage': '250m',
      'capstan.dev/memory-usage': '64Mi',
      'capstan.dev/cpu-usage.sidecar': '0.1',
    };
    assert.deepEqual(resourceList(containerUsage(annotations, 'app')), { cpu: '250m', memory: '64Mi' });
    assert.deepEqual(resourceList(containerUsage(annotations, 'sidecar')), { cpu: '100m', memory: '64Mi' });
  });

  it('ignores a malformed or negative value', () => {
    const annotations = { 'capstan.dev/cpu-usage': 'lots', 'capstan.dev/memory-usage': '-1Gi' };
    assert.deepEqual(resourceList(containerUsage(annotations, 'app')), { cpu: '1m', memory: '1Mi' });
  });

  it('writes CPU in decimal and memory in binary canonical form', () => {
    const u = containerUsage({ 'capstan.dev/cpu-usage': '1.5', 'capstan.dev/memory-usage': '1G' }, 'a');
    assert.deepEqual(resourceList(u), { cpu: '1500m', memory: '1000000000' });
    assert.deepEqual(resourceList({ cpuNanos: 123_456_789n, memoryBytes: 3n * 1024n }), {
      cpu: '123456789n',
      memory: '3Ki',
    });
    assert.deepEqual(resourceList({ cpuNanos: 0n, memoryBytes: 0n }), { cpu: '0', memory: '0' });
  });

  it('gives a node a base of 50m and 128Mi, or what its annotations say', () => {
    assert.deepEqual(resourceList(nodeBaseUsage(undefined)), { cpu: '50m', memory: '128Mi' });
    const annotated = nodeBaseUsage({ 'capstan.dev/cpu-usage': '2', 'capstan.dev/memory-usage': '1Gi' });
    assert.deepEqual(resourceList(annotated), { cpu: '2', memory: '1Gi' });
    assert.deepEqual(resourceList(addUsage(annotated, containerUsage(undefined, 'x'))), {
      cpu: '2001m',
      memory: '1025Mi',
    });
  });
});
