// TaintNodesByCondition through the default chain over the real node storage.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Node, Taint } from '../../../api/core/v1/node.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { newNodeREST } from '../../../registry/core/node/storage.js';
import { admittedGroupsOf, type AdmittedGroups } from '../../testing/admitted-groups.js';
import { taintNodesByConditionPluginName } from './admission.js';

const nodesAt = { group: '', resource: 'nodes' };
const node = (name: string, taints?: Taint[]): Node => ({
  metadata: { name },
  ...(taints === undefined ? {} : { spec: { taints } }),
});
const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

describe('TaintNodesByCondition admission', () => {
  let rest: MemoryRESTOptions;
  let api: AdmittedGroups;

  before(async () => {
    rest = await memoryRESTOptions();
    const nodes = await newNodeREST({ restOptionsGetter: rest.getter });
    api = admittedGroupsOf({ '': { nodes: nodes.nodes } });
  });
  after(async () => {
    api.chain.close();
    await rest.close();
  });

  it('is in the chain when nodes are served', () => {
    assert.deepEqual(api.chain.names, [taintNodesByConditionPluginName]);
  });

  it('creates a node with the not-ready NoSchedule taint after its own', async () => {
    assert.deepEqual((await api.create(nodesAt, node('bare'))).spec?.taints, [notReady]);
    const own: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
    assert.deepEqual((await api.create(nodesAt, node('gpu', [own]))).spec?.taints, [own, notReady]);
  });

  it('does not add it twice; a NoExecute taint of the key is another taint', async () => {
    const withValue: Taint = { key: 'node.kubernetes.io/not-ready', value: 'x', effect: 'NoSchedule' };
    assert.deepEqual((await api.create(nodesAt, node('has', [withValue]))).spec?.taints, [withValue]);
    const noExecute: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };
    assert.deepEqual((await api.create(nodesAt, node('exec', [noExecute]))).spec?.taints, [
      noExecute,
      notReady,
    ]);
  });

  it('leaves updates alone', async () => {
    const stored = await api.create(nodesAt, node('later'));
    const out: Node = await api.update(nodesAt, { ...stored, spec: { taints: [] } });
    assert.deepEqual(out.spec?.taints ?? [], []);
  });
});
