import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndpointAddress, EndpointSubset } from '../../../api/core/v1/endpoints.js';
import { capacityAnnotations, truncateSubsets } from './endpoints-capacity.js';

const addresses = (prefix: string, n: number): EndpointAddress[] =>
  Array.from({ length: n }, (_, i) => ({
    ip: `${prefix}.${String(Math.floor(i / 250))}.${String(i % 250)}`,
  }));
const subset = (port: number, ready: number, notReady: number): EndpointSubset => ({
  ports: [{ port, protocol: 'TCP' }],
  ...(ready === 0 ? {} : { addresses: addresses(`10.${String(port % 250)}`, ready) }),
  ...(notReady === 0 ? {} : { notReadyAddresses: addresses(`11.${String(port % 250)}`, notReady) }),
});
const sizes = (subsets: readonly EndpointSubset[]) =>
  subsets.map((s) => [s.addresses?.length ?? 0, s.notReadyAddresses?.length ?? 0]);

describe('the capacity of Endpoints', () => {
  it('leaves 1,000 addresses as they are', () => {
    const fits = [subset(80, 600, 100), subset(81, 300, 0)];
    assert.deepEqual(truncateSubsets(fits), { subsets: fits, truncated: false });
  });

  it('cuts not-ready addresses first, each subset keeping its share rounded up', () => {
    // 900 ready leave room for 100 of the 400 not ready: 300/400 of it is 75, 100/400 is 25.
    const { subsets, truncated } = truncateSubsets([subset(80, 600, 300), subset(81, 300, 100)]);
    assert.equal(truncated, true);
    assert.deepEqual(sizes(subsets), [
      [600, 75],
      [300, 25],
    ]);
    // Shares rounded up: the last subset gets what is left.
    const uneven = truncateSubsets([subset(80, 990, 7), subset(81, 0, 7), subset(82, 0, 7)]);
    assert.deepEqual(sizes(uneven.subsets), [
      [990, 4],
      [0, 4],
      [0, 2],
    ]);
  });

  it('cuts ready addresses past 1,000 and drops every not-ready one', () => {
    const { subsets, truncated } = truncateSubsets([subset(80, 900, 50), subset(81, 300, 10)]);
    assert.equal(truncated, true);
    // 900/1200 of 1,000 is 750; 300/1200 is 250.
    assert.deepEqual(sizes(subsets), [
      [750, 0],
      [250, 0],
    ]);
    assert.equal(subsets[0]?.notReadyAddresses, undefined);
    assert.deepEqual(subsets[1]?.ports, [{ port: 81, protocol: 'TCP' }]);
    assert.deepEqual(subsets[0]?.addresses?.slice(0, 2), addresses('10.80', 2));
  });

  it('marks truncated Endpoints, and takes the mark away once they fit', () => {
    const marked = capacityAnnotations({ a: 'b' }, true);
    assert.deepEqual(marked, { a: 'b', 'endpoints.kubernetes.io/over-capacity': 'truncated' });
    assert.deepEqual(capacityAnnotations(marked, false), { a: 'b' });
    assert.deepEqual(capacityAnnotations(undefined, false), {});
  });
});
