// applyAppArmorVersionSkew as kube 1.33's PrepareForCreate runs it: the AppArmor annotation and field
// synced both ways, the deprecation warning where kube gives it, and validation seeing the synced pod.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod, PodSpec } from '../../../api/core/v1/pod.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { applyAppArmorVersionSkew } from './apparmor-skew.js';
import { newPodREST, type PodStorage } from './storage.js';

const key = (name: string): string => `container.apparmor.security.beta.kubernetes.io/${name}`;
const warning = (name: string): string =>
  `metadata.annotations[${key(name)}]: deprecated since v1.30; use the "appArmorProfile" field instead`;

function pod(
  annotations: Record<string, string> | undefined,
  edit: (spec: PodSpec) => void = () => undefined,
  name = 'p',
): Pod {
  const p: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
  };
  if (annotations !== undefined) p.metadata = { ...p.metadata, annotations };
  if (p.spec !== undefined) edit(p.spec);
  return p;
}

/** The pod after the skew, with the warnings it gave. */
function skewed(p: Pod): { pod: Pod; warnings: string[] } {
  const ctx = testContext();
  applyAppArmorVersionSkew(ctx, p);
  return { pod: p, warnings: ctx.warnings };
}

const app = (p: Pod): Container => {
  const c = p.spec?.containers[0];
  assert.ok(c !== undefined);
  return c;
};

describe('applyAppArmorVersionSkew', () => {
  it('annotates each container from its own field, else the pod one, without a warning', () => {
    const { pod: p, warnings } = skewed(
      pod(undefined, (s) => {
        s.securityContext = { appArmorProfile: { type: 'Localhost', localhostProfile: 'pod-p' } };
        s.initContainers = [{ name: 'init', image: 'x' }];
        s.containers.push({
          name: 'own',
          image: 'x',
          securityContext: { appArmorProfile: { type: 'Unconfined' } },
        });
        s.containers.push({
          name: 'rd',
          image: 'x',
          securityContext: { appArmorProfile: { type: 'RuntimeDefault' } },
        });
      }),
    );
    assert.deepEqual(p.metadata?.annotations, {
      [key('init')]: 'localhost/pod-p',
      [key('app')]: 'localhost/pod-p',
      [key('own')]: 'unconfined',
      [key('rd')]: 'runtime/default',
    });
    assert.deepEqual(warnings, []);
  });

  it('adds no annotation for a field without an annotation form, nor falls back to the pod one', () => {
    const { pod: p } = skewed(
      pod(undefined, (s) => {
        s.securityContext = { appArmorProfile: { type: 'RuntimeDefault' } };
        s.containers.push({
          name: 'odd',
          image: 'x',
          securityContext: { appArmorProfile: { type: 'Other' } },
        });
        s.containers.push({
          name: 'bare',
          image: 'x',
          securityContext: { appArmorProfile: { type: 'Localhost' } },
        });
      }),
    );
    assert.deepEqual(p.metadata?.annotations, { [key('app')]: 'runtime/default' });
  });

  it('copies an annotation into a container without a field, with the deprecation warning', () => {
    const { pod: p, warnings } = skewed(
      pod({ [key('app')]: 'localhost/prof', [key('ghost')]: 'unconfined' }, (s) => {
        s.ephemeralContainers = [{ name: 'dbg', image: 'x' }];
      }),
    );
    assert.deepEqual(app(p).securityContext, {
      appArmorProfile: { type: 'Localhost', localhostProfile: 'prof' },
    });
    assert.deepEqual(warnings, [warning('app')]);
  });

  it('warns of an annotation that makes no valid field, and copies nothing', () => {
    for (const value of ['', 'bogus', 'localhost/', 'localhost/ padded', `localhost/${'x'.repeat(4096)}`]) {
      const { pod: p, warnings } = skewed(pod({ [key('app')]: value }));
      assert.equal(app(p).securityContext, undefined, value);
      assert.deepEqual(warnings, [warning('app')], value);
    }
  });

  it("neither copies nor warns when the annotation says what the pod's profile says", () => {
    const { pod: p, warnings } = skewed(
      pod({ [key('app')]: 'runtime/default' }, (s) => {
        s.securityContext = { appArmorProfile: { type: 'RuntimeDefault' } };
      }),
    );
    assert.equal(app(p).securityContext, undefined);
    assert.deepEqual(warnings, []);
    // A different pod profile: the container gets the annotation's own.
    const other = skewed(
      pod({ [key('app')]: 'unconfined' }, (s) => {
        s.securityContext = { appArmorProfile: { type: 'RuntimeDefault' } };
      }),
    );
    assert.deepEqual(app(other.pod).securityContext, { appArmorProfile: { type: 'Unconfined' } });
    assert.deepEqual(other.warnings, [warning('app')]);
  });

  it('leaves a container with both an annotation and a field as it is', () => {
    const { pod: p, warnings } = skewed(
      pod({ [key('app')]: 'unconfined' }, (s) => {
        const c = s.containers[0];
        if (c !== undefined) c.securityContext = { appArmorProfile: { type: 'RuntimeDefault' } };
      }),
    );
    assert.deepEqual(app(p).securityContext, { appArmorProfile: { type: 'RuntimeDefault' } });
    assert.deepEqual(p.metadata?.annotations, { [key('app')]: 'unconfined' });
    assert.deepEqual(warnings, []);
  });

  it('leaves Windows pods and pods without AppArmor alone', () => {
    const windows = skewed(
      pod({ [key('app')]: 'unconfined' }, (s) => {
        s.os = { name: 'windows' };
        s.securityContext = { appArmorProfile: { type: 'RuntimeDefault' } };
      }),
    );
    assert.equal(app(windows.pod).securityContext, undefined);
    assert.deepEqual(windows.pod.metadata?.annotations, { [key('app')]: 'unconfined' });
    assert.deepEqual(windows.warnings, []);
    const plain = skewed(pod(undefined));
    assert.deepEqual(plain.pod, pod(undefined));
  });
});

describe('pod create with AppArmor annotations and fields', () => {
  let env: MemoryRESTOptions;
  let s: PodStorage;
  before(async () => {
    env = await memoryRESTOptions();
    s = await newPodREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores the synced pod and sends the warning', async () => {
    const ctx = testContext('default');
    const out = await s.pods.create(
      ctx,
      pod({ [key('app')]: 'runtime/default' }, (spec) => {
        spec.containers.push({
          name: 'side',
          image: 'x',
          securityContext: { appArmorProfile: { type: 'Unconfined' } },
        });
      }),
      { options: {} },
    );
    assert.deepEqual(out.metadata?.annotations, {
      [key('app')]: 'runtime/default',
      [key('side')]: 'unconfined',
    });
    assert.deepEqual(app(out).securityContext?.appArmorProfile, { type: 'RuntimeDefault' });
    assert.deepEqual(ctx.warnings, [warning('app')]);
  });

  it("validates after syncing: an annotation unlike the pod's profile becomes the container's own", async () => {
    const ctx = testContext('default');
    const out = await s.pods.create(
      ctx,
      pod(
        { [key('app')]: 'localhost/a' },
        (spec) => {
          spec.securityContext = { appArmorProfile: { type: 'Localhost', localhostProfile: 'b' } };
        },
        'q',
      ),
      { options: {} },
    );
    assert.deepEqual(app(out).securityContext?.appArmorProfile, { type: 'Localhost', localhostProfile: 'a' });
    // An annotation that makes no field is still refused by the annotation's own check.
    await rejectsWithStatus(
      s.pods.create(testContext('default'), pod({ [key('app')]: 'bogus' }, undefined, 'r'), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Pod "r" is invalid: metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: Invalid value: "bogus": invalid AppArmor profile name: "bogus"',
      },
    );
  });
});
