import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../../../api/core/v1/node.js';
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { imageLocalityScores, normalizedImageName } from './image-locality.js';

const mib = 1024 * 1024;
const node = (name: string, images: Record<string, number> = {}): Node => ({
  metadata: { name },
  status: {
    images: Object.entries(images).map(([n, size]) => ({ names: [n], sizeBytes: size * mib })),
  },
});
const pod = (images: string[], initImages: string[] = []): Pod => {
  const containers = (list: string[]): Container[] => list.map((image, i) => ({ name: `c${i}`, image }));
  return {
    metadata: { name: 'p', namespace: 'default' },
    spec: { initContainers: containers(initImages), containers: containers(images) },
  };
};

describe('ImageLocality, as kube-scheduler v1.33 scores it', () => {
  it('tags an untagged name latest, and leaves a tag or a registry port alone', () => {
    assert.equal(normalizedImageName('nginx'), 'nginx:latest');
    assert.equal(normalizedImageName('nginx:1.25'), 'nginx:1.25');
    assert.equal(normalizedImageName('localhost:5000/app'), 'localhost:5000/app:latest');
    assert.equal(normalizedImageName('nginx@sha256:abc'), 'nginx@sha256:abc');
  });

  it("sums the sizes of the pod's init containers' and containers' images, scaled by their spread", () => {
    const a = node('a', { 'gcr.io/big:v1': 500 });
    const b = node('b');
    const c = node('c', { 'gcr.io/big:v1': 500, 'gcr.io/small:latest': 100 });
    const all = [a, b, c];
    // big on 2 of 3 nodes: trunc(500 MiB × 2/3) = 349525333; small on 1: trunc(100 MiB / 3) =
    // 34952533. Two containers: from 23 MiB (24117248) to 2000 MiB (2097152000).
    // a: 100 × (349525333 − 24117248) / 2073034752 → 15; c: 100 × (384477866 − 24117248) / … → 17.
    assert.deepEqual(imageLocalityScores(pod(['gcr.io/small'], ['gcr.io/big:v1']), all, all), [15, 0, 17]);
    assert.deepEqual(imageLocalityScores(pod(['gcr.io/big:v1', 'gcr.io/small']), all, all), [15, 0, 17]);
    // The spread counts every node, not only those scored.
    assert.deepEqual(imageLocalityScores(pod(['gcr.io/big:v1', 'gcr.io/small']), [c], all), [17]);
  });

  it('scores 0 below 23 MiB and 100 from 1000 MiB per container', () => {
    const nodes = [node('a', { 'tiny:1': 40 }), node('b', { 'huge:1': 1200 })];
    // tiny: 40 MiB × 1/2 = 20 MiB, under 23 MiB → 0; huge: 1200 MiB × 1/2 → 600 MiB → 59.
    assert.deepEqual(imageLocalityScores(pod(['tiny:1']), nodes, nodes), [0, 0]);
    assert.deepEqual(imageLocalityScores(pod(['huge:1']), nodes, nodes), [0, 59]);
    const everywhere = [node('a', { 'huge:1': 1200 }), node('b', { 'huge:1': 1200 })];
    assert.deepEqual(imageLocalityScores(pod(['huge:1']), everywhere, everywhere), [100, 100]);
  });

  it('looks images up by the name as the pod writes it, without adding a registry', () => {
    const nodes = [node('a', { 'nginx:latest': 900 }), node('b', { 'docker.io/library/nginx:latest': 900 })];
    // 900 MiB × 1/2 = 450 MiB → 100 × 427 / 977 → 43; b's fully qualified name is not "nginx:latest".
    assert.deepEqual(imageLocalityScores(pod(['nginx']), nodes, nodes), [43, 0]);
  });
});
