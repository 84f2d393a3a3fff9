// validateOS, validateWindowsHostProcessPod, the pod's windowsOptions and seLinuxChangePolicy,
// validateOverhead and the resource claims, with kube's exact texts, types and paths.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from '../../../../api/core/v1/container.js';
import type { Pod, PodSpec } from '../../../../api/core/v1/pod.js';
import { setPodDefaults } from '../defaults.js';
import { validatePod, validatePodSpec, validatePodUpdate } from '../validation.js';
import { FieldPath, type ErrorList } from '../../../../machinery/validation/index.js';
import { validatePodTemplateSpec } from '../../podtemplate/validation.js';

const container = (over: Partial<Container> = {}): Container => ({
  name: 'app',
  image: 'nginx:1.25',
  ...over,
});

function pod(edit: (spec: PodSpec) => void = () => undefined): Pod {
  const p: Pod = { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [container()] } };
  setPodDefaults(p);
  if (p.spec !== undefined) edit(p.spec);
  return p;
}

/** Each error as `<type> <field>: <body>`: the type, the path and kube's text at once. */
const texts = (errs: ErrorList): string[] => errs.map((e) => `${e.type} ${e.error()}`);

const first = (spec: PodSpec): Container => {
  const c = spec.containers[0];
  assert.ok(c !== undefined);
  return c;
};

describe('validateOS as kube', () => {
  it('requires a name', () => {
    assert.deepEqual(texts(validatePod(pod((s) => (s.os = { name: '' })))), [
      'FieldValueRequired spec.os.name: Required value: cannot be empty',
    ]);
  });

  it('refuses an unknown name at spec.os, and then skips the OS checks', () => {
    const p = pod((s) => {
      s.os = { name: 'plan9' };
      s.securityContext = { windowsOptions: { runAsUserName: 'u' } };
    });
    assert.deepEqual(texts(validatePod(p)), [
      'FieldValueNotSupported spec.os: Unsupported value: "plan9": supported values: "linux", "windows"',
    ]);
  });

  it('still runs the linux checks for linux', () => {
    const p = pod((s) => {
      s.os = { name: 'linux' };
      s.securityContext = { windowsOptions: { runAsUserName: 'u' } };
    });
    assert.deepEqual(texts(validatePod(p)), [
      'FieldValueForbidden spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
    ]);
  });
});

describe('the pod security context as kube', () => {
  it("validates the pod's windowsOptions after seccomp", () => {
    const p = pod((s) => (s.securityContext = { windowsOptions: { runAsUserName: '' } }));
    assert.deepEqual(texts(validatePod(p)), [
      'FieldValueInvalid spec.securityContext.windowsOptions.runAsUserName: Invalid value: "": runAsUserName cannot be an empty string',
    ]);
  });

  it('allows only Recursive as seLinuxChangePolicy on create (SELinuxMount is off in 1.33)', () => {
    assert.deepEqual(
      texts(validatePod(pod((s) => (s.securityContext = { seLinuxChangePolicy: 'Recursive' })))),
      [],
    );
    assert.deepEqual(
      texts(validatePod(pod((s) => (s.securityContext = { seLinuxChangePolicy: 'MountOption' })))),
      [
        'FieldValueNotSupported spec.securityContext.seLinuxChangePolicy: Unsupported value: "MountOption": supported values: "Recursive"',
      ],
    );
  });

  it('allows either policy once the old pod had one, and still refuses others', () => {
    const old = pod((s) => (s.securityContext = { seLinuxChangePolicy: 'Recursive' }));
    const mount = pod((s) => (s.securityContext = { seLinuxChangePolicy: 'MountOption' }));
    assert.ok(
      !texts(validatePodUpdate(mount, old)).some((t) => t.includes('seLinuxChangePolicy: Unsupported')),
    );
    const bad = pod((s) => (s.securityContext = { seLinuxChangePolicy: 'Never' }));
    assert.ok(
      texts(validatePodUpdate(bad, old)).includes(
        'FieldValueNotSupported spec.securityContext.seLinuxChangePolicy: Unsupported value: "Never": supported values: "MountOption", "Recursive"',
      ),
    );
  });
});

describe('validateWindowsHostProcessPod as kube', () => {
  const hostProcess = (value: boolean): NonNullable<Container['securityContext']> => ({
    windowsOptions: { hostProcess: value },
  });

  it('needs every container to be HostProcess, and the host network', () => {
    const p = pod((s) => {
      first(s).securityContext = hostProcess(true);
      s.initContainers = [container({ name: 'init' })];
      setPodDefaults({ spec: s });
    });
    assert.deepEqual(texts(validatePod(p)), [
      'FieldValueInvalid spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
      'FieldValueInvalid spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers',
    ]);
  });

  it('reports a container that disagrees with the pod, whose value the others inherit', () => {
    const p = pod((s) => {
      s.hostNetwork = true;
      s.securityContext = { windowsOptions: { hostProcess: true } };
      s.containers.push(container({ name: 'b', securityContext: hostProcess(false) }));
      setPodDefaults({ spec: s });
    });
    assert.deepEqual(texts(validatePod(p)), [
      'FieldValueInvalid spec.containers[1].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true',
      'FieldValueInvalid spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
    ]);
  });

  it('accepts a pod of HostProcess containers on the host network', () => {
    const p = pod((s) => {
      s.hostNetwork = true;
      first(s).securityContext = hostProcess(true);
    });
    assert.deepEqual(texts(validatePod(p)), []);
  });
});

describe('validateOverhead as kube', () => {
  it("checks the overhead as a container's limits, under spec.overhead.limits", () => {
    const p = pod((s) => (s.overhead = { cpu: '-1', 'example.com/thing': '1' }));
    assert.deepEqual(texts(validatePod(p)), [
      'FieldValueInvalid spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
    ]);
  });
});

describe('resource claims as kube', () => {
  it('validates the pod claims: name, duplicates, exactly one source', () => {
    const p = pod(
      (s) =>
        (s.resourceClaims = [
          { name: 'a', resourceClaimName: 'c' },
          { name: 'a', resourceClaimTemplateName: 't' },
          { name: 'B_', resourceClaimName: 'c', resourceClaimTemplateName: 't' },
          { name: '' },
        ]),
    );
    assert.deepEqual(texts(validatePod(p)), [
      'FieldValueDuplicate spec.resourceClaims[1].name: Duplicate value: "a"',
      `FieldValueInvalid spec.resourceClaims[2].name: Invalid value: "B_": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'FieldValueInvalid spec.resourceClaims[2]: Invalid value: core.PodResourceClaim{Name:"B_", ResourceClaimName:(*string)(0xc000000000), ResourceClaimTemplateName:(*string)(0xc000000000)}: at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified',
      'FieldValueRequired spec.resourceClaims[3].name: Required value',
      'FieldValueInvalid spec.resourceClaims[3]: Invalid value: core.PodResourceClaim{Name:"", ResourceClaimName:(*string)(nil), ResourceClaimTemplateName:(*string)(nil)}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`',
    ]);
  });

  it("refuses a static pod's claims, each on the empty path", () => {
    const p = pod((s) => {
      s.nodeName = 'n1';
      s.resourceClaims = [{ name: 'gpu', resourceClaimName: 'c' }, { name: '' }];
    });
    p.metadata = { ...p.metadata, annotations: { 'kubernetes.io/config.mirror': 'hash' } };
    assert.deepEqual(texts(validatePod(p)), [
      'FieldValueForbidden []: Forbidden: static pods do not support resource claims',
      'FieldValueForbidden []: Forbidden: static pods do not support resource claims',
    ]);
  });

  it("checks a container's claims against the pod's", () => {
    const p = pod((s) => {
      s.resourceClaims = [
        { name: 'gpu', resourceClaimName: 'c' },
        { name: 'net', resourceClaimName: 'd' },
      ];
      first(s).resources = {
        claims: [
          { name: 'gpu', request: 'r1' },
          { name: 'gpu' },
          { name: 'gpu', request: 'r1' },
          { name: 'x' },
          { name: '' },
        ],
      };
    });
    assert.deepEqual(texts(validatePod(p)), [
      'FieldValueDuplicate spec.containers[0].resources.claims[1]: Duplicate value: "gpu"',
      'FieldValueDuplicate spec.containers[0].resources.claims[2]: Duplicate value: "gpu"',
      'FieldValueNotFound spec.containers[0].resources.claims[3]: Not found: "x": must be one of the names in pod.spec.resourceClaims: gpu, net',
      'FieldValueRequired spec.containers[0].resources.claims[4]: Required value',
    ]);
  });

  it('says when the pod has no claims', () => {
    const p = pod((s) => (first(s).resources = { claims: [{ name: 'gpu', request: 'R' }] }));
    assert.deepEqual(texts(validatePod(p)), [
      `FieldValueInvalid spec.containers[0].resources.claims[0].request: Invalid value: "R": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'FieldValueNotFound spec.containers[0].resources.claims[0]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty',
    ]);
  });
});

describe('terminationGracePeriodSeconds as kube', () => {
  it('has no lower bound in ValidatePodSpec: a template keeps a negative one, a pod was given 1', () => {
    const spec = pod((s) => (s.terminationGracePeriodSeconds = -5)).spec ?? { containers: [] };
    assert.deepEqual(texts(validatePodSpec(spec, FieldPath.of('spec'))), []);
    assert.deepEqual(texts(validatePodTemplateSpec({ metadata: {}, spec }, FieldPath.of('template'))), []);
    const p: Pod = { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [container()] } };
    if (p.spec !== undefined) p.spec.terminationGracePeriodSeconds = -5;
    setPodDefaults(p);
    assert.equal(p.spec?.terminationGracePeriodSeconds, 1);
  });
});

describe('validateHostAliases as kube', () => {
  it('reads the IP as netutils.ParseIPSloppy does: leading zeros pass, zones do not', () => {
    const aliases = (ip: string) => pod((s) => (s.hostAliases = [{ ip, hostnames: ['db.local'] }]));
    assert.deepEqual(texts(validatePod(aliases('010.001.002.003'))), []);
    assert.deepEqual(texts(validatePod(aliases('::ffff:10.0.0.1'))), []);
    assert.deepEqual(texts(validatePod(aliases('fe80::1%eth0'))), [
      'FieldValueInvalid spec.hostAliases[0].ip: Invalid value: "fe80::1%eth0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
  });
});
