import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../../../api/core/v1/node.js';
import { normalizedImageReference, simulatedImageSize } from './image-reference.js';
import { NodeImages } from './node-images.js';

const mib = 1024 * 1024;
const node = (name: string, images?: NonNullable<Node['status']>['images']): Node => ({
  metadata: { name },
  status: images === undefined ? {} : { images },
});

describe('image references as the runtime stores them', () => {
  it('adds docker.io, library/ and latest as distribution/reference normalizes a name', () => {
    assert.equal(normalizedImageReference('nginx'), 'docker.io/library/nginx:latest');
    assert.equal(normalizedImageReference('nginx:1.25'), 'docker.io/library/nginx:1.25');
    assert.equal(normalizedImageReference('bitnami/redis'), 'docker.io/bitnami/redis:latest');
    assert.equal(normalizedImageReference('index.docker.io/nginx'), 'docker.io/library/nginx:latest');
    assert.equal(normalizedImageReference('registry.k8s.io/pause:3.10'), 'registry.k8s.io/pause:3.10');
    assert.equal(normalizedImageReference('localhost/app'), 'localhost/app:latest');
    assert.equal(normalizedImageReference('localhost:5000/app'), 'localhost:5000/app:latest');
    assert.equal(normalizedImageReference('nginx@sha256:abc'), 'docker.io/library/nginx@sha256:abc');
  });

  it('makes a size from the name: (23 + FNV-1a-32 mod 977) MiB, the same on every node', () => {
    // FNV-1a-32("docker.io/library/nginx:latest") = 3416580223; mod 977 = 476.
    assert.equal(simulatedImageSize('docker.io/library/nginx:latest'), 499 * mib);
    // FNV-1a-32("docker.io/library/busybox:latest") = 885416285; mod 977 = 265.
    assert.equal(simulatedImageSize('docker.io/library/busybox:latest'), 288 * mib);
  });
});

describe("a node's images, as kubelet's nodestatus.Images reports them", () => {
  it('names an image by its full name and each reference pods ran it by, tagged latest', () => {
    const images = new NodeImages();
    const changed: string[] = [];
    images.onChange((n) => changed.push(n));
    const a = node('a');
    images.pulled(a, ['nginx', 'docker.io/library/nginx:latest', 'busybox:latest', '']);
    assert.deepEqual(images.statusImages(a), [
      { names: ['docker.io/library/nginx:latest', 'nginx:latest'], sizeBytes: 499 * mib },
      { names: ['docker.io/library/busybox:latest', 'busybox:latest'], sizeBytes: 288 * mib },
    ]);
    // Nothing new: no change told.
    images.pulled(a, ['nginx:latest']);
    assert.deepEqual(changed, ['a']);
    assert.deepEqual(images.statusImages(node('b')), []);
  });

  it('lists the largest first, at most 50 images of at most 5 names each', () => {
    const images = new NodeImages();
    const a = node('a');
    images.pulled(
      a,
      Array.from({ length: 60 }, (_, i) => `registry.example/app-${String(i)}:v1`),
    );
    const reported = images.statusImages(a);
    assert.equal(reported.length, 50);
    const sizes = reported.map((i) => i.sizeBytes ?? 0);
    assert.deepEqual(
      sizes,
      [...sizes].sort((x, y) => y - x),
    );
    const b = node('b');
    images.pulled(b, [
      'one',
      'library/one',
      'docker.io/library/one',
      'index.docker.io/one',
      'docker.io/one',
      'one:latest',
      'docker.io/library/one:latest',
    ]);
    assert.deepEqual(images.statusImages(b)[0]?.names, [
      'docker.io/library/one:latest',
      'one:latest',
      'library/one:latest',
      'index.docker.io/one:latest',
      'docker.io/one:latest',
    ]);
  });

  it("starts from what the node's status reports (images held before a restart)", () => {
    const before = node('a', [
      { names: ['docker.io/library/redis:7', 'redis:7'], sizeBytes: 40 * mib },
      { names: ['registry.example/big:v1'], sizeBytes: 900 * mib },
      { names: ['a.example/same:1'], sizeBytes: 40 * mib },
    ]);
    const images = new NodeImages();
    images.pulled(before, ['redis:7', 'nginx']);
    assert.deepEqual(images.statusImages(before), [
      { names: ['registry.example/big:v1'], sizeBytes: 900 * mib },
      { names: ['docker.io/library/nginx:latest', 'nginx:latest'], sizeBytes: 499 * mib },
      // Of two of one size, the greater ID (here the full name) first, as sliceutils.ByImageSize.
      { names: ['docker.io/library/redis:7', 'redis:7'], sizeBytes: 40 * mib },
      { names: ['a.example/same:1'], sizeBytes: 40 * mib },
    ]);
  });
});
