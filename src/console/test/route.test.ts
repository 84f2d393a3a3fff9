import { it } from 'node:test';
import assert from 'node:assert/strict';
import { listHref, objectHref, parseRoute } from '../route.js';
import { findResource, groupLabel, resourceOfKind, type Resource } from '../discovery.js';

it('reads the pages from the hash, the resources page for anything else', () => {
  assert.deepEqual(parseRoute(''), { page: 'resources' });
  assert.deepEqual(parseRoute('#/events'), { page: 'events' });
  assert.deepEqual(parseRoute('#/test'), { page: 'test' });
  assert.deepEqual(parseRoute('#/r/core'), { page: 'resources' });
  assert.deepEqual(parseRoute('#/nowhere/x'), { page: 'resources' });
});

it('round-trips list and object links, the core group as "core" and no namespace as "-"', () => {
  const query = new URLSearchParams({ ns: 'default', l: 'app=web' });
  const list = parseRoute(listHref('', 'pods', query));
  assert.ok(list.page === 'list');
  assert.deepEqual(
    [list.group, list.resource, list.query.get('l'), list.query.get('ns')],
    ['', 'pods', 'app=web', 'default'],
  );
  assert.equal(listHref('', 'pods'), '#/r/core/pods');

  const cr = { group: 'shop.example.com', resource: 'widgets', namespace: '', name: 'a b/c' };
  const href = objectHref(cr, 'history');
  assert.equal(href, '#/o/shop.example.com/widgets/-/a%20b%2Fc?tab=history');
  assert.deepEqual(parseRoute(href), { page: 'object', ...cr, tab: 'history' });
  assert.deepEqual(parseRoute(objectHref({ ...cr, namespace: 'ns' })), {
    page: 'object',
    ...cr,
    namespace: 'ns',
    tab: 'yaml',
  });
});

const resources: Resource[] = [
  { group: '', version: 'v1', name: 'pods', kind: 'Pod', namespaced: true, verbs: ['list'] },
  {
    group: 'apps',
    version: 'v1',
    name: 'replicasets',
    kind: 'ReplicaSet',
    namespaced: true,
    verbs: ['list'],
  },
  {
    group: 'shop.example.com',
    version: 'v1beta1',
    name: 'widgets',
    kind: 'Widget',
    namespaced: true,
    verbs: [],
  },
];

it('finds a resource by group and name, or by an owner reference apiVersion and kind', () => {
  assert.equal(findResource(resources, 'apps', 'replicasets')?.kind, 'ReplicaSet');
  assert.equal(findResource(resources, '', 'replicasets'), undefined);
  assert.equal(resourceOfKind(resources, 'apps/v1', 'ReplicaSet')?.name, 'replicasets');
  assert.equal(resourceOfKind(resources, 'v1', 'Pod')?.name, 'pods');
  assert.equal(resourceOfKind(resources, 'shop.example.com/v1', 'Widget')?.name, 'widgets');
  assert.equal(resourceOfKind(resources, 'v1', 'ReplicaSet'), undefined);
  assert.equal(groupLabel(''), 'core');
  assert.equal(groupLabel('apps'), 'apps');
});
