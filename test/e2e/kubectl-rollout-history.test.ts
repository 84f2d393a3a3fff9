// `kubectl rollout history` and `kubectl rollout undo` for DaemonSets and StatefulSets against a
// simulated cluster (startCapstan({ simulate: { nodes: 2 }, clock: 'virtual' })): kubectl reads the
// ControllerRevisions the controllers keep and rolls back by patching the set with one's data.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';

const workloadYaml = (kind: 'DaemonSet' | 'StatefulSet', name: string): string => `apiVersion: apps/v1
kind: ${kind}
metadata:
  name: ${name}
  annotations: {kubernetes.io/change-cause: "created with busybox:1"}
spec:
${kind === 'StatefulSet' ? '  serviceName: db\n  replicas: 1\n' : ''}  updateStrategy: {type: OnDelete}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: c, image: "busybox:1"}]}
`;

describe('kubectl rollout history and undo for DaemonSets and StatefulSets', () => {
  let server: CapstanServer;
  const { ok } = kubectlSession(() => server.kubeconfigPath);
  const until = async (args: readonly string[], holds: (out: string) => boolean): Promise<string> => {
    let out = '';
    for (let i = 0; i < 60; i++) {
      out = await ok(args);
      if (holds(out)) return out;
    }
    assert.fail(`kubectl ${args.join(' ')}: ${out}`);
  };

  before(async () => {
    await locateKubectl();
    server = await startCapstan({ clock: 'virtual', simulate: { nodes: 2 } });
  });
  after(async () => {
    await server.stop();
  });

  for (const [kind, resource, name] of [
    ['DaemonSet', 'daemonset', 'agent'],
    ['StatefulSet', 'statefulset', 'db'],
  ] as const) {
    it(`${kind}: history lists each template's revision, undo brings the previous one back`, async () => {
      const target = `${resource}/${name}`;
      await ok(['create', '-f', '-'], workloadYaml(kind, name));
      await until(['rollout', 'history', target], (out) => /^1\s/m.test(out));
      await ok(['annotate', target, 'kubernetes.io/change-cause=set image busybox:2', '--overwrite']);
      await ok(['set', 'image', target, 'c=busybox:2']);
      const history = await until(['rollout', 'history', target], (out) => /^2\s/m.test(out));
      assert.match(history, /^REVISION\s+CHANGE-CAUSE$/m);
      assert.match(history, /^1\s+created with busybox:1$/m);
      assert.match(history, /^2\s+set image busybox:2$/m);
      const first = await ok(['rollout', 'history', target, '--revision=1']);
      assert.match(first, /with revision #1/);
      assert.match(first, /Image:\s+busybox:1/);

      assert.match(await ok(['rollout', 'undo', target]), new RegExp(`${resource}.apps/${name} rolled back`));
      assert.equal(
        await ok(['get', target, '-o', 'jsonpath={.spec.template.spec.containers[0].image}']),
        'busybox:1',
      );
      // The template of revision 1 is the newest again: it is renumbered 3.
      const undone = await until(['rollout', 'history', target], (out) => /^3\s/m.test(out));
      assert.doesNotMatch(undone, /^1\s/m);
      assert.match(undone, /^2\s/m);
      assert.match(
        await ok(['rollout', 'undo', target, '--to-revision=3']),
        new RegExp(
          `${resource}.apps/${name} skipped rollback \\(current template already matches revision 3\\)`,
        ),
      );
    });
  }
});
