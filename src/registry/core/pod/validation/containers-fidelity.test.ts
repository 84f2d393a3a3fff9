import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from '../../../../api/core/v1/container.js';
import type { Volume } from '../../../../api/core/v1/volume.js';
import { FieldPath } from '../../../../machinery/validation/index.js';
import { subdomainMsg } from '../../../../machinery/validation/testing/kube-messages.js';
import { validateContainers, validateInitContainers } from './containers.js';

const volumes = new Map<string, Volume>();
const path = FieldPath.of('spec', 'containers');

/** A container as the defaults leave it, changed by `over`. */
const container = (over: Partial<Container> = {}): Container => ({
  name: 'app',
  image: 'nginx:1.25',
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePolicy: 'File',
  ...over,
});

const check = (
  containers: Container[],
  pod: { restartPolicy?: string; hostUsers?: boolean } = {},
): string[] => validateContainers(containers, { volumes, path, grace: 30, ...pod }).map(String);

const headerMsg =
  "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";

describe('container validation as kube 1.33 writes it', () => {
  it('checks an HTTP GET action: path, scheme among the supported ones, header names at the list', () => {
    const probe = {
      httpGet: {
        path: '',
        port: 80,
        scheme: 'FTP',
        httpHeaders: [
          { name: 'X-Ok', value: '1' },
          { name: 'Bad Header', value: '2' },
        ],
      },
    };
    assert.deepEqual(check([container({ readinessProbe: probe })]), [
      'spec.containers[0].readinessProbe.httpGet.path: Required value',
      'spec.containers[0].readinessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"',
      `spec.containers[0].readinessProbe.httpGet.httpHeaders: Invalid value: "Bad Header": ${headerMsg}`,
    ]);
    assert.deepEqual(
      check([
        container({
          lifecycle: {
            preStop: { httpGet: { path: '/', port: 80, httpHeaders: [{ name: 'a_b', value: '' }] } },
          },
        }),
      ]),
      [`spec.containers[0].lifecycle.preStop.httpGet.httpHeaders: Invalid value: "a_b": ${headerMsg}`],
    );
  });

  it('reports nameless containers as a duplicate empty name', () => {
    const nameless = { ...container() } as Partial<Container>;
    delete nameless.name;
    assert.deepEqual(check([nameless as Container, nameless as Container]), [
      'spec.containers[0].name: Required value',
      'spec.containers[1].name: Required value',
      'spec.containers[1].name: Duplicate value: ""',
    ]);
  });

  it('checks resizePolicy entries, at the list, and none but NotRequired under restartPolicy Never', () => {
    const resizePolicy = [
      { resourceName: 'cpu', restartPolicy: 'NotRequired' },
      { resourceName: 'cpu', restartPolicy: 'Sometimes' },
      { resourceName: 'gpu', restartPolicy: 'RestartContainer' },
      { resourceName: '', restartPolicy: '' },
    ];
    assert.deepEqual(check([container({ resizePolicy })], { restartPolicy: 'Never' }), [
      'spec.containers[0].resizePolicy[1]: Duplicate value: "cpu"',
      'spec.containers[0].resizePolicy: Unsupported value: "Sometimes": supported values: "NotRequired", "RestartContainer"',
      "spec.containers[0].resizePolicy: Invalid value: \"Sometimes\": must be 'NotRequired' when `restartPolicy` is 'Never'",
      'spec.containers[0].resizePolicy: Unsupported value: "gpu": supported values: "cpu", "memory"',
      "spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never'",
      'spec.containers[0].resizePolicy: Required value',
      'spec.containers[0].resizePolicy: Required value',
      "spec.containers[0].resizePolicy: Invalid value: \"\": must be 'NotRequired' when `restartPolicy` is 'Never'",
    ]);
    const fine = [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }];
    assert.deepEqual(check([container({ resizePolicy: fine })], { restartPolicy: 'Always' }), []);
    // Init containers may carry one too (InPlacePodVerticalScaling is on in 1.33).
    assert.deepEqual(
      validateInitContainers([container({ name: 'init', resizePolicy: fine })], {
        regular: [],
        volumes,
        path: FieldPath.of('spec', 'initContainers'),
      }).map(String),
      [],
    );
  });

  it('checks procMount, and Unmasked only without the host user namespace', () => {
    const sc = (procMount: string): Container => container({ securityContext: { procMount } });
    assert.deepEqual(check([sc('Weird')]), [
      'spec.containers[0].securityContext.procMount: Unsupported value: "Weird": supported values: "Default", "Unmasked"',
    ]);
    assert.deepEqual(check([sc('Unmasked')], { hostUsers: true }), [
      'spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`',
    ]);
    assert.deepEqual(check([sc('Unmasked')], { hostUsers: false }), []);
  });

  it('checks a seccomp profile', () => {
    const sc = (seccompProfile: { type: string; localhostProfile?: string }): Container =>
      container({ securityContext: { seccompProfile } });
    const at = 'spec.containers[0].securityContext.seccompProfile';
    assert.deepEqual(check([sc({ type: '' })]), [
      `${at}.type: Required value: type is required when seccompProfile is set`,
    ]);
    assert.deepEqual(check([sc({ type: 'Custom' })]), [
      `${at}.type: Unsupported value: "Custom": supported values: "Localhost", "RuntimeDefault", "Unconfined"`,
    ]);
    assert.deepEqual(check([sc({ type: 'Localhost' })]), [
      `${at}.localhostProfile: Required value: must be set when seccomp type is Localhost`,
    ]);
    assert.deepEqual(check([sc({ type: 'Localhost', localhostProfile: '/p/../x.json' })]), [
      `${at}.localhostProfile: Invalid value: "/p/../x.json": must be a relative path`,
      `${at}.localhostProfile: Invalid value: "/p/../x.json": must not contain '..'`,
    ]);
    assert.deepEqual(check([sc({ type: 'Localhost', localhostProfile: 'profiles/x.json' })]), []);
    const [err] = check([sc({ type: 'RuntimeDefault', localhostProfile: 'x' })]);
    assert.match(
      err ?? '',
      /^spec\.containers\[0\]\.securityContext\.seccompProfile\.localhostProfile: Invalid value: .*: can only be set when seccomp type is Localhost$/,
    );
  });

  it('checks an AppArmor profile', () => {
    const sc = (appArmorProfile: { type: string; localhostProfile?: string }): Container =>
      container({ securityContext: { appArmorProfile } });
    const at = 'spec.containers[0].securityContext.appArmorProfile';
    assert.deepEqual(check([sc({ type: '' })]), [
      `${at}.type: Required value: type is required when appArmorProfile is set`,
    ]);
    assert.deepEqual(check([sc({ type: 'Other' })]), [
      `${at}.type: Unsupported value: "Other": supported values: "Localhost", "RuntimeDefault", "Unconfined"`,
    ]);
    assert.deepEqual(check([sc({ type: 'Localhost' })]), [
      `${at}.localhostProfile: Required value: must be set when AppArmor type is Localhost`,
    ]);
    assert.deepEqual(check([sc({ type: 'Localhost', localhostProfile: ' k8s-x' })]), [
      `${at}.localhostProfile: Invalid value: " k8s-x": must not be padded with whitespace`,
    ]);
    assert.deepEqual(check([sc({ type: 'Localhost', localhostProfile: 'x'.repeat(4096) })]), [
      `${at}.localhostProfile: Too long: may not be more than 4095 bytes`,
    ]);
    assert.deepEqual(check([sc({ type: 'Unconfined', localhostProfile: 'k8s-x' })]), [
      `${at}.localhostProfile: Invalid value: "k8s-x": can only be set when AppArmor type is Localhost`,
    ]);
  });

  it('checks Windows options', () => {
    const sc = (windowsOptions: Record<string, string>): Container =>
      container({ securityContext: { windowsOptions } });
    const at = 'spec.containers[0].securityContext.windowsOptions';
    assert.deepEqual(check([sc({ gmsaCredentialSpecName: 'Bad_Name', gmsaCredentialSpec: '' })]), [
      `${at}.gmsaCredentialSpecName: Invalid value: "Bad_Name": ${subdomainMsg}`,
      `${at}.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string`,
    ]);
    const user = (name: string): string[] => check([sc({ runAsUserName: name })]);
    assert.deepEqual(user(''), [
      `${at}.runAsUserName: Invalid value: "": runAsUserName cannot be an empty string`,
    ]);
    assert.deepEqual(user('a\tb'), [
      `${at}.runAsUserName: Invalid value: "a\\tb": runAsUserName cannot contain control characters`,
    ]);
    assert.deepEqual(user('a\\b\\c'), [
      `${at}.runAsUserName: Invalid value: "a\\\\b\\\\c": runAsUserName cannot contain more than one backslash`,
    ]);
    assert.deepEqual(user('.bad\\'), [
      `${at}.runAsUserName: Invalid value: ".bad\\\\": runAsUserName's Domain doesn't match the NetBios nor the DNS format`,
      `${at}.runAsUserName: Invalid value: ".bad\\\\": runAsUserName's User cannot be empty`,
    ]);
    assert.deepEqual(user('. .'), [
      `${at}.runAsUserName: Invalid value: ". .": runAsUserName's User cannot contain only periods or spaces`,
    ]);
    assert.deepEqual(user('CONTOSO\\us:er'), [
      `${at}.runAsUserName: Invalid value: "CONTOSO\\\\us:er": runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`,
    ]);
    assert.deepEqual(user('contoso.example.com\\ContainerAdministrator'), []);
  });

  it('refuses allowPrivilegeEscalation false beside privileged or CAP_SYS_ADMIN', () => {
    const errs = check([
      container({
        securityContext: {
          allowPrivilegeEscalation: false,
          privileged: true,
          capabilities: { add: ['CAP_SYS_ADMIN'] },
        },
      }),
    ]);
    // kube prints its Go struct as the value; only the field and the detail are compared.
    assert.equal(errs.length, 2);
    assert.match(
      errs[0] ?? '',
      /^spec\.containers\[0\]\.securityContext: Invalid value: .*: cannot set `allowPrivilegeEscalation` to false and `privileged` to true$/,
    );
    assert.match(
      errs[1] ?? '',
      /^spec\.containers\[0\]\.securityContext: Invalid value: .*: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN$/,
    );
  });
});
