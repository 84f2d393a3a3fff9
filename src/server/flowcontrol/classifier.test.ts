import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FlowSchema } from '../../api/flowcontrol/v1/flow-schema.js';
import type { PriorityLevelConfiguration } from '../../api/flowcontrol/v1/priority-level-configuration.js';
import {
  mandatoryFlowSchemas,
  mandatoryPriorityLevels,
  suggestedFlowSchemas,
  suggestedPriorityLevels,
} from './bootstrap-configuration.js';
import { RequestClassifier } from './classifier.js';

const withUID = <T extends FlowSchema | PriorityLevelConfiguration>(o: T): T => ({
  ...o,
  metadata: { ...o.metadata, uid: `uid-${o.metadata?.name ?? ''}` },
});

const levels = [...mandatoryPriorityLevels, ...suggestedPriorityLevels].map(withUID);
const schemas = [...mandatoryFlowSchemas, ...suggestedFlowSchemas].map(withUID);

const resource = (
  verb: string,
  more: { group?: string; resource: string; subresource?: string; namespace?: string },
) => ({
  isResourceRequest: true,
  verb,
  apiGroup: more.group ?? '',
  resource: more.resource,
  subresource: more.subresource ?? '',
  namespace: more.namespace ?? '',
  path: '/whatever',
});
const nonResource = (verb: string, path: string) => ({
  isResourceRequest: false,
  verb,
  apiGroup: '',
  resource: '',
  subresource: '',
  namespace: '',
  path,
});

const user = (name: string, ...groups: string[]) => ({ name, groups: [...groups, 'system:authenticated'] });
const sa = (ns: string, name: string) =>
  user(`system:serviceaccount:${ns}:${name}`, 'system:serviceaccounts', `system:serviceaccounts:${ns}`);

describe("RequestClassifier over kube's bootstrap configuration", () => {
  const c = new RequestClassifier(schemas, levels);
  const schemaOf = (...args: Parameters<RequestClassifier['classify']>) =>
    c.classify(...args)?.flowSchemaName;

  it('puts system:masters in exempt whatever the request', () => {
    const admin = user('admin', 'system:masters');
    assert.equal(schemaOf(admin, resource('delete', { resource: 'pods', namespace: 'x' })), 'exempt');
    assert.equal(schemaOf(admin, nonResource('get', '/metrics')), 'exempt');
    const hit = c.classify(admin, nonResource('get', '/version'));
    assert.deepEqual(hit, {
      flowSchemaName: 'exempt',
      flowSchemaUID: 'uid-exempt',
      priorityLevelName: 'exempt',
      priorityLevelUID: 'uid-exempt',
      exempt: true,
      distinguisher: undefined,
      level: {
        shares: 0,
        lendablePercent: 0,
        borrowingLimitPercent: undefined,
        reject: false,
        queues: 1,
        handSize: 1,
        queueLengthLimit: 0,
      },
    });
    assert.equal(c.totalShares, 0 + 5 + 30 + 40 + 10 + 40 + 100 + 20);
    // What fair queuing lends and borrows by: workload-low lends 90 %, limits borrowing nowhere.
    const low = c.levels.get('workload-low');
    assert.deepEqual([low?.lendablePercent, low?.borrowingLimitPercent], [90, undefined]);
  });

  it('matches service accounts by exact name, by namespace wildcard and by group', () => {
    const get = resource('get', { resource: 'endpoints', namespace: 'default' });
    assert.equal(
      schemaOf(
        sa('kube-system', 'endpoint-controller'),
        resource('update', { resource: 'endpoints', namespace: 'a' }),
      ),
      'endpoint-controller',
    );
    assert.equal(schemaOf(sa('kube-system', 'other'), get), 'workload-leader-election');
    assert.equal(
      schemaOf(sa('kube-system', 'other'), resource('get', { resource: 'pods', namespace: 'a' })),
      'kube-system-service-accounts',
    );
    assert.equal(
      schemaOf(
        sa('kube-system', 'other'),
        resource('get', { group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-system' }),
      ),
      'system-leader-election',
    );
    assert.equal(schemaOf(sa('default', 'robot'), get), 'service-accounts');
    // A look-alike user name outside the service account groups is not a kube-system account.
    assert.equal(schemaOf(user('system:serviceaccount:kube-systemx:a'), get), 'global-default');
  });

  it('matches users, subresources, namespaces and clusterScope', () => {
    const node = user('system:node:n1', 'system:nodes');
    assert.equal(
      schemaOf(node, resource('patch', { resource: 'nodes', subresource: 'status' })),
      'system-node-high',
    );
    assert.equal(
      schemaOf(node, resource('get', { resource: 'nodes', subresource: 'proxy' })),
      'system-nodes',
    );
    // leases rule is not cluster scoped: a cluster-wide list is not matched by it.
    assert.equal(
      schemaOf(node, resource('list', { group: 'coordination.k8s.io', resource: 'leases' })),
      'system-nodes',
    );
    assert.equal(
      schemaOf(node, resource('list', { group: 'coordination.k8s.io', resource: 'leases', namespace: 'n' })),
      'system-node-high',
    );
    const kcm = user('system:kube-controller-manager');
    assert.equal(
      schemaOf(kcm, resource('update', { resource: 'configmaps', namespace: 'kube-system' })),
      'system-leader-election',
    );
    assert.equal(
      schemaOf(kcm, resource('update', { resource: 'configmaps', namespace: 'other' })),
      'kube-controller-manager',
    );
  });

  it('matches non-resource URLs exactly or by a /* prefix, and the anonymous user', () => {
    assert.equal(schemaOf(undefined, nonResource('get', '/healthz')), 'probes');
    assert.equal(schemaOf(undefined, nonResource('get', '/healthz/etcd')), 'global-default');
    assert.equal(schemaOf(undefined, nonResource('post', '/healthz')), 'global-default');
    const custom = new RequestClassifier(
      [
        withUID({
          metadata: { name: 'health' },
          spec: {
            priorityLevelConfiguration: { name: 'system' },
            matchingPrecedence: 3,
            rules: [
              {
                subjects: [{ kind: 'User', user: { name: '*' } }],
                nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/healthz/*'] }],
              },
            ],
          },
        }),
      ],
      levels,
    );
    assert.equal(custom.classify(undefined, nonResource('get', '/healthz/etcd'))?.flowSchemaName, 'health');
    assert.equal(custom.classify(undefined, nonResource('get', '/healthz')), undefined);
  });

  it('breaks precedence ties by name, skips dangling schemas and falls back to catch-all', () => {
    const rule = {
      subjects: [{ kind: 'Group', group: { name: '*' } }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    };
    const fs = (name: string, level: string): FlowSchema =>
      withUID({
        metadata: { name },
        spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence: 5, rules: [rule] },
      });
    const tie = new RequestClassifier(
      [
        fs('b', 'system'),
        fs('a', 'missing'),
        fs('c', 'system'),
        ...schemas.filter((s) => s.metadata?.name === 'catch-all'),
      ],
      levels,
    );
    assert.equal(tie.classify(undefined, nonResource('get', '/x'))?.flowSchemaName, 'b');
    const none = new RequestClassifier(
      schemas.filter((s) => s.metadata?.name === 'catch-all' || s.metadata?.name === 'probes'),
      levels,
    );
    // catch-all matches every request anyway; a request no rule matches gets catch-all too.
    assert.equal(
      none.classify({ name: 'odd', groups: [] }, nonResource('get', '/x'))?.flowSchemaName,
      'catch-all',
    );
  });
});
