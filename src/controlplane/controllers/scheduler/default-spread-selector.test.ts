import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../api/meta.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ReplicationController } from '../../../api/core/v1/replication-controller.js';
import type { Service } from '../../../api/core/v1/service.js';
import { keyOf } from '../simulation/informer.js';
import { defaultSpreadSelector } from './default-spread-selector.js';

/** What the selector reads of an informer, over fixed objects. */
const lister = <T extends KubeObject>(...items: T[]) => ({
  get: (key: string) => items.find((o) => keyOf(o) === key),
  list: () => items,
});
const labels = { app: 'web', tier: 'front', track: 'stable' };
const ownedBy = (apiVersion: string, kind: string, name: string): Pod => ({
  metadata: {
    name: 'p',
    namespace: 'default',
    labels,
    ownerReferences: [{ apiVersion, kind, name, uid: 'u', controller: true }],
  },
});
const service: Service = {
  metadata: { name: 's', namespace: 'default' },
  spec: { selector: { app: 'web' } },
};
const rc: ReplicationController = {
  metadata: { name: 'rc', namespace: 'default' },
  spec: { selector: { app: 'web', tier: 'front' } },
};

describe("PodTopologySpread's DefaultSelector (helper.DefaultSelector)", () => {
  it("merges the controlling ReplicationController's selector with the Services'", () => {
    const owners = { services: lister(service), replicationControllers: lister(rc) };
    const selector = defaultSpreadSelector(ownedBy('v1', 'ReplicationController', 'rc'), owners);
    assert.equal(selector.toString(), 'app=web,tier=front');
    assert.equal(selector.matches({ app: 'web', tier: 'back' }), false);
    // An RC the informer does not hold: the Services' selector alone.
    const other = defaultSpreadSelector(ownedBy('v1', 'ReplicationController', 'gone'), owners);
    assert.equal(other.toString(), 'app=web');
  });
});
