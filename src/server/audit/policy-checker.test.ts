import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { auditConfigFor } from './policy-checker.js';
import { decodePolicy } from './policy.js';
import type { AuthorizationAttributes } from '../../registry/rest/authorizer.js';

const policy = decodePolicy(`apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  users: ["system:kube-proxy"]
  verbs: [watch]
- level: None
  nonResourceURLs: ["/healthz*", /version]
- level: Metadata
  resources: [{ group: "", resources: [secrets, configmaps] }]
- level: Request
  namespaces: [kube-system]
  resources: [{ group: apps, resources: ["deployments/*"], resourceNames: [coredns] }]
- level: RequestResponse
  userGroups: [admins]
  resources: [{ group: "", resources: ["*/status"] }]
  omitStages: [ResponseStarted]
  omitManagedFields: true
`);

const attrs = (a: Partial<AuthorizationAttributes>): AuthorizationAttributes => ({
  user: { name: 'jane', groups: ['admins'] },
  verb: 'get',
  resourceRequest: true,
  namespace: '',
  apiGroup: '',
  resource: '',
  subresource: '',
  name: '',
  ...a,
});

describe('audit policy checker', () => {
  it('takes the first rule that matches', () => {
    const level = (a: Partial<AuthorizationAttributes>): string => auditConfigFor(policy, attrs(a)).level;
    assert.equal(
      level({ user: { name: 'system:kube-proxy', groups: [] }, verb: 'watch', resource: 'pods' }),
      'None',
    );
    assert.equal(
      level({ user: { name: 'system:kube-proxy', groups: [] }, verb: 'list', resource: 'secrets' }),
      'Metadata',
    );
    assert.equal(level({ resourceRequest: false, path: '/healthz/etcd' }), 'None');
    assert.equal(level({ resourceRequest: false, path: '/version' }), 'None');
    assert.equal(level({ resource: 'configmaps', namespace: 'default' }), 'Metadata');
    const coredns = {
      apiGroup: 'apps',
      resource: 'deployments',
      subresource: 'scale',
      namespace: 'kube-system',
    };
    assert.equal(level({ ...coredns, name: 'coredns' }), 'Request');
    assert.equal(level({ ...coredns, name: 'other', user: { name: 'x', groups: [] } }), 'None');
    assert.equal(level({ resource: 'pods', subresource: 'status', name: 'p' }), 'RequestResponse');
    assert.equal(level({ resource: 'pods', name: 'p' }), 'None');
  });

  it('joins the policy and rule stages and takes the rule omitManagedFields', () => {
    const config = auditConfigFor(policy, attrs({ resource: 'pods', subresource: 'status' }));
    assert.deepEqual(config, {
      level: 'RequestResponse',
      omitStages: ['RequestReceived', 'ResponseStarted'],
      omitManagedFields: true,
    });
  });

  it('refuses unknown levels and stages with kube field paths', () => {
    assert.throws(
      () =>
        decodePolicy(
          'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n  omitStages: [Sometime]\n',
        ),
      {
        message:
          'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse", rules[0].omitStages[0]: Unsupported value: "Sometime": supported values: "RequestReceived", "ResponseStarted", "ResponseComplete", "Panic"',
      },
    );
  });
});
