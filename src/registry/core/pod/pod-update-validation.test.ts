import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod, PodSpec } from '../../../api/core/v1/pod.js';
import { setPodDefaults } from './defaults.js';
import { validateEphemeralContainersUpdate } from './ephemeral-containers.js';
import { validatePod, validatePodStatusUpdate, validatePodUpdate } from './validation.js';

/** A valid, defaulted pod, changed by `edit`. */
function pod(edit: (spec: PodSpec) => void = () => undefined): Pod {
  const p: Pod = {
    metadata: { name: 'p', namespace: 'default', resourceVersion: '1' },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
  };
  setPodDefaults(p);
  if (p.spec !== undefined) edit(p.spec);
  return p;
}

const texts = (errs: readonly { error(): string }[]): string[] => errs.map((e) => e.error());
const update = (next: Pod, old: Pod): string[] => texts(validatePodUpdate(next, old));

describe('ValidatePodSpec pod-level fields as kube 1.33', () => {
  const check = (edit: (spec: PodSpec) => void): string[] => texts(validatePod(pod(edit)));

  it('checks the security context: sysctls, shareProcessNamespace, policies, seccomp and AppArmor', () => {
    assert.deepEqual(
      check((s) => {
        s.hostNetwork = true;
        s.hostPID = true;
        s.shareProcessNamespace = true;
        s.securityContext = {
          sysctls: [
            { name: '', value: '1' },
            { name: 'Kernel.X', value: '1' },
            { name: 'net.core.somaxconn', value: '1' },
            { name: 'net.core.somaxconn', value: '2' },
          ],
          fsGroupChangePolicy: 'Sometimes',
          seccompProfile: { type: 'Localhost' },
          appArmorProfile: { type: 'RuntimeDefault', localhostProfile: 'p' },
          supplementalGroupsPolicy: 'Loose',
        };
      }),
      [
        'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
        'spec.securityContext.sysctls[0].name: Required value',
        'spec.securityContext.sysctls[1].name: Invalid value: "Kernel.X": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
        'spec.securityContext.sysctls[2].name: Invalid value: "net.core.somaxconn": may not be specified when \'hostNetwork\' is true',
        'spec.securityContext.sysctls[3].name: Duplicate value: "net.core.somaxconn"',
        'spec.securityContext.sysctls[3].name: Invalid value: "net.core.somaxconn": may not be specified when \'hostNetwork\' is true',
        'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"',
        'spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
        'spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "p": can only be set when AppArmor type is Localhost',
        'spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Loose": supported values: "Merge", "Strict"',
      ],
    );
  });

  it('checks gates, host users, host aliases and the toleration value of an Exists operator', () => {
    assert.deepEqual(
      check((s) => {
        s.readinessGates = [{ conditionType: 'bad type' }];
        s.schedulingGates = [{ name: 'a' }, { name: 'a' }];
        s.hostUsers = false;
        s.hostIPC = true;
        s.tolerations = [{ key: 'k', operator: 'Exists', value: 'v' }];
        s.hostAliases = [{ ip: '1.2.3', hostnames: ['Bad_Host'] }];
      }),
      [
        `spec.readinessGates[0].conditionType: Invalid value: "bad type": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
        'spec.schedulingGates[1]: Duplicate value: "a"',
        'spec.HostIPC: Forbidden: when `pod.Spec.HostUsers` is false',
        'spec.tolerations[0].operator: Invalid value: "v": value must be empty when `operator` is \'Exists\'',
        'spec.hostAliases[0].ip: Invalid value: "1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        `spec.hostAliases[0].hostnames[0]: Invalid value: "Bad_Host": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    );
  });

  it('refuses Linux-only fields on a windows pod and windows options on a linux pod', () => {
    assert.deepEqual(
      check((s) => {
        s.os = { name: 'windows' };
        s.hostPID = true;
        s.securityContext = { runAsUser: 1, seccompProfile: { type: 'RuntimeDefault' } };
        const c = s.containers[0];
        if (c !== undefined) c.securityContext = { privileged: false };
      }),
      [
        'spec.hostPID: Forbidden: cannot be set for a windows pod',
        'spec.securityContext.seccompProfile: Forbidden: cannot be set for a windows pod',
        'spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
        'spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod',
      ],
    );
    assert.deepEqual(
      check((s) => {
        s.os = { name: 'linux' };
        s.securityContext = { windowsOptions: { runAsUserName: 'u' } };
      }),
      ['spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod'],
    );
  });

  it('forbids a node name on create while scheduling gates remain', () => {
    assert.deepEqual(
      check((s) => {
        s.nodeName = 'n1';
        s.schedulingGates = [{ name: 'g' }];
      }),
      ['spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared'],
    );
  });
});

describe('ValidatePodUpdate as kube 1.33', () => {
  it('refuses a changed container count on its own, before the general message', () => {
    const old = pod();
    const next = pod((s) => s.containers.push({ ...s.containers[0], name: 'two', image: 'busybox' }));
    assert.deepEqual(update(next, old), [
      'spec.containers: Forbidden: pod updates may not add or remove containers',
    ]);
  });

  it('checks activeDeadlineSeconds updates as kube does', () => {
    const old = pod((s) => (s.activeDeadlineSeconds = 10));
    assert.deepEqual(update(pod(), old), [
      'spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value',
    ]);
    assert.deepEqual(
      update(
        pod((s) => (s.activeDeadlineSeconds = 20)),
        old,
      ),
      ['spec.activeDeadlineSeconds: Invalid value: 20: must be less than or equal to previous value'],
    );
    assert.deepEqual(
      update(
        pod((s) => (s.activeDeadlineSeconds = 5)),
        old,
      ),
      [],
    );
  });

  it('lets a toleration change its tolerationSeconds and be added to, and reports its errors twice', () => {
    const t = { key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute', tolerationSeconds: 5 };
    const old = pod((s) => (s.tolerations = [t]));
    assert.deepEqual(
      update(
        pod(
          (s) =>
            (s.tolerations = [
              { ...t, tolerationSeconds: 1 },
              { key: 'x', operator: 'Exists' },
            ]),
        ),
        old,
      ),
      [],
    );
    assert.deepEqual(
      update(
        pod((s) => (s.tolerations = [{ ...t, value: 'w' }])),
        old,
      ),
      ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds'],
    );
    assert.deepEqual(
      update(
        pod((s) => (s.tolerations = [t, { key: 'x', operator: 'Lt' }])),
        old,
      ),
      [
        'spec.tolerations[1].operator: Unsupported value: "Lt": supported values: "Equal", "Exists"',
        'spec.tolerations[1].operator: Unsupported value: "Lt": supported values: "Equal", "Exists"',
      ],
    );
  });

  it('lets scheduling gates be removed but not added', () => {
    const old = pod((s) => (s.schedulingGates = [{ name: 'a' }, { name: 'b' }]));
    assert.deepEqual(
      update(
        pod((s) => (s.schedulingGates = [{ name: 'b' }])),
        old,
      ),
      [],
    );
    assert.deepEqual(
      update(
        pod((s) => (s.schedulingGates = [{ name: 'a' }, { name: 'c' }])),
        old,
      ),
      [
        "spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'c'",
      ],
    );
  });
});

describe('ValidatePodStatusUpdate as kube 1.33', () => {
  const withStatus = (status: NonNullable<Pod['status']>, edit?: (spec: PodSpec) => void): Pod => ({
    ...pod(edit),
    status,
  });

  it('checks custom conditions, an immutable QoS class and a changed nominated node', () => {
    const old = withStatus({ qosClass: 'BestEffort', nominatedNodeName: 'Old_Node' });
    const next = withStatus({
      qosClass: 'Burstable',
      nominatedNodeName: 'Old_Node',
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'bad condition', status: 'True' },
      ],
    });
    assert.deepEqual(texts(validatePodStatusUpdate(next, old)), [
      `metadata.conditions[1].Type: Invalid value: "bad condition": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'status.qosClass: Invalid value: "Burstable": field is immutable',
    ]);
  });

  it('forbids a terminated container to run again unless the policy restarts it', () => {
    const terminated = { name: 'app', state: { terminated: { exitCode: 0 } } } as never;
    const running = { name: 'app', state: { running: {} } } as never;
    const never = (s: PodSpec): void => {
      s.restartPolicy = 'Never';
    };
    const old = withStatus({ containerStatuses: [terminated] }, never);
    assert.deepEqual(
      texts(validatePodStatusUpdate(withStatus({ containerStatuses: [running] }, never), old)),
      ['status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state'],
    );
    const always = withStatus({ containerStatuses: [terminated] });
    assert.deepEqual(
      texts(validatePodStatusUpdate(withStatus({ containerStatuses: [running] }), always)),
      [],
    );
  });
});

describe('ValidatePodEphemeralContainersUpdate as kube 1.33', () => {
  it('answers a static pod with one error on the empty path, printed `[]`', () => {
    const old = pod();
    old.metadata = { ...old.metadata, annotations: { 'kubernetes.io/config.mirror': '' } };
    const next = structuredClone(old);
    assert.deepEqual(texts(validateEphemeralContainersUpdate(next, old)), [
      '[]: Forbidden: static pods do not support ephemeral containers',
    ]);
  });

  it("checks the pod's annotations twice, as kube's annotation-update check checks them again", () => {
    const old = pod();
    old.metadata = {
      ...old.metadata,
      annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'bogus' },
    };
    const next = structuredClone(old);
    const bad =
      'metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "bogus": must be a valid seccomp profile';
    assert.deepEqual(texts(validateEphemeralContainersUpdate(next, old)), [bad, bad]);
  });

  it('forbids subPathExpr and a padded image in an ephemeral container', () => {
    const old = pod();
    const next = pod((s) => {
      s.ephemeralContainers = [
        {
          name: 'debug',
          image: ' busybox',
          imagePullPolicy: 'IfNotPresent',
          terminationMessagePolicy: 'File',
          volumeMounts: [{ name: 'v', mountPath: '/v', subPathExpr: '$(X)' }],
        },
      ];
    });
    assert.deepEqual(
      texts(validateEphemeralContainersUpdate(next, old)).filter((e) => !e.includes('volumeMounts[0].name')),
      [
        'spec.ephemeralContainers[0].image: Invalid value: " busybox": must not have leading or trailing whitespace',
        'spec.ephemeralContainers[0].volumeMounts[0].subPathExpr: Forbidden: cannot be set for an Ephemeral Container',
      ],
    );
  });
});

describe('what an update may keep that a create may not (kube 1.33 validation options)', () => {
  const badAffinity = (s: PodSpec): void => {
    s.affinity = {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['not a value'] }] },
            topologyKey: 'zone',
          },
        ],
      },
    };
  };
  const badSpread = (s: PodSpec): void => {
    s.topologySpreadConstraints = [
      {
        maxSkew: 1,
        topologyKey: 'zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: '-bad' } },
      },
    ];
  };
  const farToken = (s: PodSpec): void => {
    // A projected token needs a service account (the ServiceAccount admission plugin names one).
    s.serviceAccountName = 'default';
    s.volumes = [
      {
        name: 'token',
        projected: { sources: [{ serviceAccountToken: { path: '../token', expirationSeconds: 3600 } }] },
      },
    ];
  };
  const relabeled = (old: Pod): Pod => ({ ...old, metadata: { ...old.metadata, labels: { tier: 'web' } } });

  it('refuses on create, and takes on an update of a pod that already had it', () => {
    for (const edit of [badAffinity, badSpread, farToken]) {
      const old = pod(edit);
      assert.equal(validatePod(old).length, 1, texts(validatePod(old)).join('\n'));
      assert.deepEqual(update(relabeled(old), old), []);
    }
  });

  it('keeps checking a pod that did not have it', () => {
    const old = pod();
    const next = { ...relabeled(old), spec: pod(farToken).spec ?? { containers: [] } };
    assert.ok(
      update(next, old).includes(
        'spec.volumes[0].projected.path: Invalid value: "../token": must not contain \'..\'',
      ),
      update(next, old).join('\n'),
    );
  });

  it("checks containers against the pod's restart policy and user namespace", () => {
    const errs = texts(
      validatePod(
        pod((s) => {
          s.restartPolicy = 'Never';
          const c = s.containers[0];
          if (c === undefined) return;
          c.resizePolicy = [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }];
          c.securityContext = { procMount: 'Unmasked' };
        }),
      ),
    );
    assert.deepEqual(errs, [
      "spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never'",
      'spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`',
    ]);
  });
});

describe('bodies that leave required members out (the decoder does not enforce them)', () => {
  it('reports them as Required instead of failing', () => {
    const p = pod((s) => {
      s.securityContext = { sysctls: [{ value: '1' } as unknown as { name: string; value: string }] };
      s.schedulingGates = [{} as { name: string }];
      s.readinessGates = [{} as { conditionType: string }];
      const c = s.containers[0];
      if (c !== undefined) c.securityContext = { seccompProfile: {} as { type: string } };
    });
    const errs = texts(validatePod(p));
    for (const want of [
      'spec.securityContext.sysctls[0].name: Required value',
      'spec.containers[0].securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set',
    ])
      assert.ok(errs.includes(want), `${want} in\n${errs.join('\n')}`);
    const withEphemeral = pod((s) => {
      s.ephemeralContainers = [{} as NonNullable<PodSpec['ephemeralContainers']>[number]];
    });
    assert.ok(
      texts(validatePodUpdate(withEphemeral, pod())).includes(
        'spec.ephemeralContainers[0].name: Required value',
      ),
    );
  });
});

describe('ephemeral containers get every container check, as validateEphemeralContainers gives them', () => {
  it("reports the common checks, the image's spaces, then the forbidden fields in Go's order", () => {
    const old = pod();
    const next = pod((s) => {
      s.ephemeralContainers = [
        {
          name: 'debugger',
          image: ' busybox',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
          env: [{ name: 'A=B', value: '1' }],
          lifecycle: {},
          livenessProbe: {},
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          targetContainerName: 'nope',
        },
      ];
    });
    assert.deepEqual(texts(validateEphemeralContainersUpdate(next, old)), [
      `spec.ephemeralContainers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
      'spec.ephemeralContainers[0].image: Invalid value: " busybox": must not have leading or trailing whitespace',
      'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].livenessProbe: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container',
    ]);
  });
});
