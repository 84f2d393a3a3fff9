import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  groupVersionID,
  groupVersionTag,
  operationID,
  titleCase,
  toValidOperationID,
} from './operation-ids.js';

describe('operation ids', () => {
  it('names groups as kube does', () => {
    assert.equal(groupVersionID('', 'v1'), 'CoreV1');
    assert.equal(groupVersionID('apps', 'v1'), 'AppsV1');
    assert.equal(groupVersionID('rbac.authorization.k8s.io', 'v1'), 'RbacAuthorizationV1');
    assert.equal(groupVersionID('flowcontrol.apiserver.k8s.io', 'v1beta3'), 'FlowcontrolApiserverV1beta3');
    assert.equal(groupVersionID('stable.example.com', 'v1'), 'StableExampleComV1');
    assert.equal(groupVersionTag('', 'v1'), 'core_v1');
    assert.equal(groupVersionTag('rbac.authorization.k8s.io', 'v1'), 'rbacAuthorization_v1');
  });

  it('assembles ids', () => {
    assert.equal(
      operationID('patch', { group: 'apps', version: 'v1' }, 'NamespacedDeploymentScale'),
      'patchAppsV1NamespacedDeploymentScale',
    );
    assert.equal(toValidOperationID('a-b.c', false), 'aBC');
    assert.equal(titleCase('status'), 'Status');
  });
});
