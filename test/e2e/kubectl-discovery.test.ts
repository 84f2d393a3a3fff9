// The real kubectl against one Capstan process: `kubectl api-resources` and `api-versions` list
// every built-in group version the server serves, and `kubectl get all -A` walks category `all`
// across groups.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { builtinGroupVersions } from '../../src/api/api-groups.js';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { tableRows } from './support/kube-objects.js';

const served = builtinGroupVersions.map((gv) => (gv.group === '' ? gv.version : `${gv.group}/${gv.version}`));
const groupOf = (apiVersion: string): string =>
  apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';

describe('kubectl against capstan: discovery across groups', () => {
  let capstan: CapstanProcess;
  const { ok } = kubectlSession(() => capstan.kubeconfigPath);

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
  });
  after(async () => {
    await capstan.stop();
  });

  it('api-versions lists every built-in group version', async () => {
    const versions = (await ok(['api-versions'])).split('\n').filter((l) => l !== '');
    for (const gv of served) assert.ok(versions.includes(gv), `${gv} in ${versions.join(' ')}`);
  });

  it('api-resources lists resources of every served group at its preferred version', async () => {
    const rows = tableRows(await ok(['api-resources', '-o', 'wide']));
    const header = rows[0] ?? [];
    assert.deepEqual(header.slice(0, 5), ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    const groups = new Set(
      rows.slice(1).flatMap((r) => r.filter((cell) => served.includes(cell)).map(groupOf)),
    );
    for (const gv of builtinGroupVersions)
      assert.ok(groups.has(gv.group), `a resource of group "${gv.group}"`);
    assert.ok(rows.some((r) => r[0] === 'horizontalpodautoscalers' && r.includes('autoscaling/v2')));
    const byName = (name: string): string[] | undefined => rows.find((r) => r[0] === name);
    assert.deepEqual(byName('deployments')?.slice(0, 5), [
      'deployments',
      'deploy',
      'apps/v1',
      'true',
      'Deployment',
    ]);
    assert.deepEqual(byName('clusterroles')?.slice(0, 4), [
      'clusterroles',
      'rbac.authorization.k8s.io/v1',
      'false',
      'ClusterRole',
    ]);
  });

  it('get all -A lists the category across groups', async () => {
    await ok(['create', 'deployment', 'web', '--image=nginx', '-n', 'default']);
    await ok(['create', 'service', 'clusterip', 'web', '--tcp=80:8080', '-n', 'default']);
    const out = await ok(['get', 'all', '-A']);
    assert.match(out, /service\/kubernetes/);
    assert.match(out, /service\/web/);
    assert.match(out, /deployment\.apps\/web/);
  });
});
