// The real kubectl deleting a Deployment whose ReplicaSet and Pods the test creates with
// ownerReferences, as the workload controllers (which do not run here) would: --cascade=foreground
// returns once the Pods, then the ReplicaSet, then the Deployment are gone; --cascade=orphan once
// the Deployment is gone, leaving the ReplicaSet without its reference; the default (background)
// deletes the Deployment at once and the garbage collector the rest.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';

const deploymentYaml = (name: string): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels: {app: ${name}}
spec:
  replicas: 2
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: web, image: nginx}]
`;

/** A controller's reference, as the deployment and replicaset controllers set it. */
const controllerRef = (kind: string, name: string, uid: string): string =>
  `[{apiVersion: apps/v1, kind: ${kind}, name: ${name}, uid: ${uid}, controller: true, blockOwnerDeletion: true}]`;

const replicaSetYaml = (name: string, deploymentUID: string): string => `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: ${name}-5d8f7c
  labels: {app: ${name}}
  ownerReferences: ${controllerRef('Deployment', name, deploymentUID)}
spec:
  replicas: 2
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: web, image: nginx}]
`;

// Not bound to a node, so deleting one needs no kubelet.
const podYaml = (name: string, i: number, replicaSetUID: string): string => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}-5d8f7c-${i}
  labels: {app: ${name}}
  ownerReferences: ${controllerRef('ReplicaSet', `${name}-5d8f7c`, replicaSetUID)}
spec:
  containers: [{name: web, image: nginx}]
`;

describe('kubectl delete --cascade against capstan: the garbage collector', () => {
  let capstan: CapstanProcess;
  const { ok } = kubectlSession(() => capstan.kubeconfigPath);
  const uidOf = ['-o', 'jsonpath={.metadata.uid}'];

  /** A Deployment, its ReplicaSet and two Pods, linked as the controllers link them. */
  const workload = async (name: string): Promise<void> => {
    const deploymentUID = await ok(['create', '-f', '-', ...uidOf], deploymentYaml(name));
    const replicaSetUID = await ok(['create', '-f', '-', ...uidOf], replicaSetYaml(name, deploymentUID));
    for (const i of [1, 2]) await ok(['create', '-f', '-'], podYaml(name, i, replicaSetUID));
  };
  const names = (name: string): Promise<string> =>
    ok(['get', 'deployments,replicasets,pods', '-l', `app=${name}`, '-o', 'name']);

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
  });

  after(async () => {
    await capstan.stop();
  });

  it('--cascade=foreground: kubectl returns when the Pods and the ReplicaSet are gone too', async () => {
    await workload('fg');
    assert.equal(
      await names('fg'),
      'deployment.apps/fg\nreplicaset.apps/fg-5d8f7c\npod/fg-5d8f7c-1\npod/fg-5d8f7c-2\n',
    );
    const out = await ok(['delete', 'deployment', 'fg', '--cascade=foreground', '--timeout=30s']);
    assert.match(out, /^deployment\.apps "fg" deleted/);
    assert.equal(await names('fg'), '');
  });

  it('--cascade=orphan: the ReplicaSet and its Pods stay, the ReplicaSet without its owner', async () => {
    await workload('orphan');
    const out = await ok(['delete', 'deployment', 'orphan', '--cascade=orphan', '--timeout=30s']);
    assert.match(out, /^deployment\.apps "orphan" deleted/);
    assert.equal(
      await names('orphan'),
      'replicaset.apps/orphan-5d8f7c\npod/orphan-5d8f7c-1\npod/orphan-5d8f7c-2\n',
    );
    assert.equal(await ok(['get', 'rs', 'orphan-5d8f7c', '-o', 'jsonpath={.metadata.ownerReferences}']), '');
    assert.equal(
      await ok(['get', 'pod', 'orphan-5d8f7c-1', '-o', 'jsonpath={.metadata.ownerReferences[0].name}']),
      'orphan-5d8f7c',
    );
  });

  it('the default (background): the Deployment goes at once, the collector takes the rest', async () => {
    await workload('bg');
    const out = await ok(['delete', 'deployment', 'bg', '--timeout=30s']);
    assert.match(out, /^deployment\.apps "bg" deleted/);
    await ok(['wait', '--for=delete', 'rs/bg-5d8f7c', 'pod/bg-5d8f7c-1', 'pod/bg-5d8f7c-2', '--timeout=30s']);
    assert.equal(await names('bg'), '');
  });
});
