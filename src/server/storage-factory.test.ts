import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StorageConfig } from '../storage/backend-factory/config.js';
import { jsonCodec } from '../storage/codec.js';
import { identityTransformer, type Transformer } from '../storage/value/transformer.js';
import { defaultAPIResourceConfigSource } from './resource-config.js';
import { DefaultStorageFactory, newStorageFactory, validateEtcdServersOverrides } from './storage-factory.js';

const base: StorageConfig = {
  type: 'etcd3',
  prefix: '/registry',
  transport: { serverList: ['https://main:2379'] },
};
const gr = (group: string, resource: string) => ({ group, resource });

describe('storage factory', () => {
  const factory = newStorageFactory({
    storageConfig: base,
    apiResourceConfig: defaultAPIResourceConfigSource(),
  });

  it("uses kube's special resource prefixes and lowercase names otherwise", () => {
    assert.equal(factory.resourcePrefix(gr('', 'nodes')), 'minions');
    assert.equal(factory.resourcePrefix(gr('', 'services')), 'services/specs');
    assert.equal(factory.resourcePrefix(gr('', 'endpoints')), 'services/endpoints');
    assert.equal(factory.resourcePrefix(gr('', 'replicationcontrollers')), 'controllers');
    assert.equal(factory.resourcePrefix(gr('networking.k8s.io', 'ingresses')), 'ingress');
    assert.equal(factory.resourcePrefix(gr('', 'configmaps')), 'configmaps');
    assert.equal(factory.resourcePrefix(gr('apps', 'deployments')), 'deployments');
  });

  it('stores cohabitating resources in the first enabled group', () => {
    // events.k8s.io/events lives with core events; extensions/deployments with apps.
    assert.equal(factory.resourcePrefix(gr('events.k8s.io', 'events')), 'events');
    assert.equal(factory.resourcePrefix(gr('extensions', 'ingresses')), 'ingress');
    assert.equal(factory.resourcePrefix(gr('extensions', 'replicationcontrollers')), 'controllers');
    const onlyB = new DefaultStorageFactory({
      storageConfig: base,
      resourceConfig: { anyResourceForGroupEnabled: (group) => group === 'b.io' },
    });
    onlyB.addCohabitatingResources(gr('a.io', 'things'), gr('b.io', 'things'));
    onlyB.setResourceEtcdPrefix(gr('b.io', 'things'), 'bthings');
    assert.equal(onlyB.resourcePrefix(gr('a.io', 'things')), 'bthings');
    const neither = new DefaultStorageFactory({
      storageConfig: base,
      resourceConfig: { anyResourceForGroupEnabled: () => false },
    });
    neither.addCohabitatingResources(gr('a.io', 'things'), gr('b.io', 'things'));
    assert.equal(neither.resourcePrefix(gr('a.io', 'things')), 'things');
  });

  it('builds a config per resource with the JSON codec and paging', () => {
    const c = factory.newConfig(gr('', 'configmaps'));
    assert.equal(c.type, 'etcd3');
    assert.equal(c.prefix, '/registry');
    assert.deepEqual(c.transport.serverList, ['https://main:2379']);
    assert.equal(c.codec, jsonCodec);
    assert.equal(c.paging, true);
    assert.deepEqual(c.groupResource, gr('', 'configmaps'));
  });

  it('sends overridden resources to other servers', () => {
    const f = newStorageFactory({
      storageConfig: base,
      apiResourceConfig: defaultAPIResourceConfigSource(),
      etcdServersOverrides: [
        '/events#https://ev1:2379;https://ev2:2379',
        'apps/deployments#https://apps:2379',
      ],
    });
    assert.deepEqual(f.newConfig(gr('', 'events')).transport.serverList, [
      'https://ev1:2379',
      'https://ev2:2379',
    ]);
    assert.deepEqual(f.newConfig(gr('apps', 'deployments')).transport.serverList, ['https://apps:2379']);
    assert.deepEqual(f.newConfig(gr('', 'pods')).transport.serverList, ['https://main:2379']);
    assert.deepEqual(
      f.backends().map((b) => b.server),
      ['https://apps:2379', 'https://ev1:2379', 'https://ev2:2379', 'https://main:2379'],
    );
  });

  it('refuses malformed overrides with kube text', () => {
    const msg =
      '--etcd-servers-overrides invalid, must be of format: group/resource#servers, where servers are URLs, semicolon separated';
    assert.deepEqual(
      validateEtcdServersOverrides(['events#x', '/pods']).map((e) => e.message),
      [msg, msg],
    );
    assert.throws(
      () =>
        newStorageFactory({
          storageConfig: base,
          apiResourceConfig: defaultAPIResourceConfigSource(),
          etcdServersOverrides: ['x'],
        }),
      { message: msg },
    );
  });

  it('applies prefixes, media types and transformers per resource or group', () => {
    const f = new DefaultStorageFactory({
      storageConfig: base,
      resourceConfig: defaultAPIResourceConfigSource(),
    });
    f.setEtcdPrefix(gr('', 'secrets'), '/other');
    f.setResourceEtcdPrefix(gr('apps', '*'), 'appsstuff');
    const secret: Transformer = { ...identityTransformer };
    f.setTransformer(gr('', 'secrets'), secret);
    assert.equal(f.newConfig(gr('', 'secrets')).prefix, '/other');
    assert.equal(f.newConfig(gr('', 'secrets')).transformer, secret);
    assert.equal(f.newConfig(gr('', 'configmaps')).transformer, undefined);
    assert.equal(f.resourcePrefix(gr('apps', 'statefulsets')), 'appsstuff');
    f.setSerializer(gr('', 'pods'), 'application/vnd.kubernetes.protobuf');
    assert.throws(() => f.newConfig(gr('', 'pods')), {
      message:
        'unable to find serializer for "application/vnd.kubernetes.protobuf", supported media types: [application/json]',
    });
  });

  it('asks the resource transformers (encryption at rest) for resources without a transformer of their own', () => {
    const f = new DefaultStorageFactory({
      storageConfig: base,
      resourceConfig: defaultAPIResourceConfigSource(),
    });
    const own: Transformer = { ...identityTransformer };
    const asked: string[] = [];
    const encrypted: Transformer = { ...identityTransformer };
    f.setTransformer(gr('', 'configmaps'), own);
    f.setResourceTransformers({
      transformerForResource: (r) => {
        asked.push(`${r.group}/${r.resource}`);
        return encrypted;
      },
    });
    assert.equal(f.newConfig(gr('', 'secrets')).transformer, encrypted);
    assert.equal(f.newConfig(gr('apps', 'deployments')).transformer, encrypted);
    assert.equal(f.newConfig(gr('', 'configmaps')).transformer, own);
    assert.deepEqual(asked, ['/secrets', 'apps/deployments']);
  });
});
