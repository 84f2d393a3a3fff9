// core/v1 Container and the structs it references (ports, env, resources, mounts,
// securityContext; probes and lifecycle hooks are in probe.ts). Go embeds LocalObjectReference (in
// the key selectors and env sources): JSON flattens it, protobuf carries it as its own message at
// one field number, which the tables name with `inline`.
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import {
  arrayOf,
  atomicList,
  bool,
  int32,
  int64,
  mapList,
  mapOf,
  ref,
  str,
  struct,
} from '../../schema/builders.js';
import { QUANTITY, type Quantity } from '../../util/int-or-string.js';
import type { ContainerResizePolicy, VolumeDevice } from './container-parts.js';
import { LOCAL_OBJECT_REFERENCE } from './object-reference.js';
import type { ResourceClaim } from './resource-claims.js';
import {
  APP_ARMOR_PROFILE,
  SE_LINUX_OPTIONS,
  SECCOMP_PROFILE,
  WINDOWS_OPTIONS,
  type SELinuxOptions,
  type SecurityProfile,
  type WindowsSecurityContextOptions,
} from './security-options.js';
import { LIFECYCLE, PROBE, type Lifecycle, type Probe } from './probe.js';

export type { Handler, HTTPGetAction, Lifecycle, LifecycleHandler, Probe } from './probe.js';

export interface ContainerPort {
  name?: string;
  hostPort?: number;
  containerPort: number;
  protocol?: string;
  hostIP?: string;
}

export interface KeySelector {
  name?: string;
  key: string;
  optional?: boolean;
}

export interface EnvVarSource {
  fieldRef?: { apiVersion?: string; fieldPath: string };
  resourceFieldRef?: { containerName?: string; resource: string; divisor?: Quantity };
  configMapKeyRef?: KeySelector;
  secretKeyRef?: KeySelector;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource;
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

export interface ResourceRequirements {
  limits?: Record<string, Quantity>;
  requests?: Record<string, Quantity>;
  claims?: ResourceClaim[];
}

export interface VolumeMount {
  name: string;
  readOnly?: boolean;
  mountPath: string;
  subPath?: string;
  mountPropagation?: string;
  subPathExpr?: string;
  recursiveReadOnly?: string;
}

export interface SecurityContext {
  capabilities?: { add?: string[]; drop?: string[] };
  privileged?: boolean;
  seLinuxOptions?: SELinuxOptions;
  windowsOptions?: WindowsSecurityContextOptions;
  procMount?: string;
  seccompProfile?: SecurityProfile;
  appArmorProfile?: SecurityProfile;
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  ports?: ContainerPort[];
  envFrom?: EnvFromSource[];
  env?: EnvVar[];
  resources?: ResourceRequirements;
  volumeMounts?: VolumeMount[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: Lifecycle;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  imagePullPolicy?: string;
  securityContext?: SecurityContext;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
  /** Init containers only: `Always` makes a sidecar that runs beside the app containers. */
  restartPolicy?: string;
  resizePolicy?: ContainerResizePolicy[];
  volumeDevices?: VolumeDevice[];
}

export const CONTAINER = coreV1('Container');
const PORT = coreV1('ContainerPort');
const ENV = coreV1('EnvVar');
const ENV_SOURCE = coreV1('EnvVarSource');
export const OBJECT_FIELD_SELECTOR = coreV1('ObjectFieldSelector');
export const RESOURCE_FIELD_SELECTOR = coreV1('ResourceFieldSelector');
const FIELD_SEL = OBJECT_FIELD_SELECTOR;
const RES_SEL = RESOURCE_FIELD_SELECTOR;
const CM_KEY = coreV1('ConfigMapKeySelector');
const SECRET_KEY = coreV1('SecretKeySelector');
const ENV_FROM = coreV1('EnvFromSource');
const CM_ENV = coreV1('ConfigMapEnvSource');
const SECRET_ENV = coreV1('SecretEnvSource');
const RESOURCES = coreV1('ResourceRequirements');
const MOUNT = coreV1('VolumeMount');
const SEC_CTX = coreV1('SecurityContext');
const CAPS = coreV1('Capabilities');

const strings = (description?: string): ReturnType<typeof atomicList> =>
  atomicList({ type: 'string' }, description);
const quantities = (description: string): ReturnType<typeof mapOf> => mapOf(ref(QUANTITY), description);
const keySelector = (what: string): ReturnType<typeof struct> =>
  struct(
    `A key of a ${what}.`,
    { key: str('The key.'), name: str(`Name of the ${what}.`), optional: bool() },
    { required: ['key'] },
  );
/** The LocalObjectReference Go embeds: its own message (field 1) in protobuf, flat in JSON. */
const localObjectReference = { field: 1, inline: LOCAL_OBJECT_REFERENCE };
const envSource = (what: string): ReturnType<typeof struct> =>
  struct(`Every key of a ${what} as environment variables.`, {
    name: str(`Name of the ${what}.`),
    optional: bool(),
  });

export const containerModule: APIModule = {
  definitions: {
    [CONTAINER]: struct(
      'One application container of a pod.',
      {
        args: strings('Arguments to the entrypoint.'),
        command: strings('Entrypoint array.'),
        env: mapList(ref(ENV), 'name', 'Environment variables.'),
        envFrom: atomicList(ref(ENV_FROM), 'Sources of environment variables.'),
        image: str('Container image name.'),
        imagePullPolicy: str('Always, Never or IfNotPresent.', { enum: ['Always', 'IfNotPresent', 'Never'] }),
        lifecycle: ref(LIFECYCLE, 'Actions run after the container starts and before it stops.'),
        livenessProbe: ref(PROBE),
        name: str('Name of the container, a DNS label unique in the pod.'),
        ports: arrayOf(ref(PORT), 'Ports to expose.', {
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
          'x-kubernetes-patch-strategy': 'merge',
          'x-kubernetes-patch-merge-key': 'containerPort',
        }),
        readinessProbe: ref(PROBE),
        resizePolicy: atomicList(
          ref(coreV1('ContainerResizePolicy')),
          'How the container reacts to resizes.',
        ),
        resources: ref(RESOURCES, 'Compute resources.', { default: {} }),
        restartPolicy: str(
          'Init containers only: Always makes a sidecar, restarted when it exits and running beside the containers.',
        ),
        securityContext: ref(SEC_CTX),
        startupProbe: ref(PROBE),
        stdin: bool(),
        stdinOnce: bool(),
        terminationMessagePath: str('Where the termination message is written.', {
          default: '/dev/termination-log',
        }),
        terminationMessagePolicy: str('File or FallbackToLogsOnError.', {
          enum: ['FallbackToLogsOnError', 'File'],
          default: 'File',
        }),
        tty: bool(),
        volumeDevices: arrayOf(ref(coreV1('VolumeDevice')), 'Raw block devices to map into the container.', {
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['devicePath'],
          'x-kubernetes-patch-strategy': 'merge',
          'x-kubernetes-patch-merge-key': 'devicePath',
        }),
        volumeMounts: arrayOf(ref(MOUNT), 'Volumes to mount.', {
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['mountPath'],
          'x-kubernetes-patch-strategy': 'merge',
          'x-kubernetes-patch-merge-key': 'mountPath',
        }),
        workingDir: str(),
      },
      { required: ['name'] },
    ),
    [PORT]: struct(
      'A network port of a container.',
      {
        containerPort: int32('Port number on the pod IP.'),
        hostIP: str(),
        hostPort: int32(),
        name: str(),
        protocol: str('TCP, UDP or SCTP.', { enum: ['SCTP', 'TCP', 'UDP'], default: 'TCP' }),
      },
      { required: ['containerPort'] },
    ),
    [ENV]: struct(
      'An environment variable.',
      { name: str(), value: str(), valueFrom: ref(ENV_SOURCE) },
      { required: ['name'] },
    ),
    [ENV_SOURCE]: struct('Where an environment variable value comes from.', {
      configMapKeyRef: ref(CM_KEY),
      fieldRef: ref(FIELD_SEL),
      resourceFieldRef: ref(RES_SEL),
      secretKeyRef: ref(SECRET_KEY),
    }),
    [FIELD_SEL]: struct(
      'A field of the pod.',
      { apiVersion: str(), fieldPath: str() },
      { required: ['fieldPath'] },
    ),
    [RES_SEL]: struct(
      'A resource of a container.',
      { containerName: str(), divisor: ref(QUANTITY), resource: str() },
      { required: ['resource'] },
    ),
    [CM_KEY]: keySelector('ConfigMap'),
    [SECRET_KEY]: keySelector('Secret'),
    [ENV_FROM]: struct('A source of environment variables.', {
      configMapRef: ref(CM_ENV),
      prefix: str(),
      secretRef: ref(SECRET_ENV),
    }),
    [CM_ENV]: envSource('ConfigMap'),
    [SECRET_ENV]: envSource('Secret'),
    [RESOURCES]: struct('Compute resource requests and limits.', {
      claims: arrayOf(ref(coreV1('ResourceClaim')), 'Claims of the pod the container uses.', {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
      }),
      limits: quantities('Maximum resources allowed.'),
      requests: quantities('Minimum resources required.'),
    }),
    [MOUNT]: struct(
      'A volume mounted in a container.',
      {
        mountPath: str(),
        mountPropagation: str(),
        name: str(),
        readOnly: bool(),
        recursiveReadOnly: str('Disabled, IfPossible or Enabled.'),
        subPath: str(),
        subPathExpr: str(),
      },
      { required: ['name', 'mountPath'] },
    ),
    [SEC_CTX]: struct('Security options of a container.', {
      allowPrivilegeEscalation: bool(),
      appArmorProfile: ref(APP_ARMOR_PROFILE),
      capabilities: ref(CAPS),
      privileged: bool(),
      procMount: str('Default or Unmasked.', { enum: ['Default', 'Unmasked'] }),
      readOnlyRootFilesystem: bool(),
      runAsGroup: int64(),
      runAsNonRoot: bool(),
      runAsUser: int64(),
      seLinuxOptions: ref(SE_LINUX_OPTIONS),
      seccompProfile: ref(SECCOMP_PROFILE),
      windowsOptions: ref(WINDOWS_OPTIONS),
    }),
    [CAPS]: struct('POSIX capabilities to add and drop.', { add: strings(), drop: strings() }),
  },
  protobuf: {
    [CONTAINER]: {
      name: 1,
      image: 2,
      command: 3,
      args: 4,
      workingDir: 5,
      ports: 6,
      envFrom: 19,
      env: 7,
      resources: 8,
      resizePolicy: 23,
      restartPolicy: pointer(24),
      volumeMounts: 9,
      volumeDevices: 21,
      livenessProbe: pointer(10),
      readinessProbe: pointer(11),
      startupProbe: pointer(22),
      lifecycle: pointer(12),
      terminationMessagePath: 13,
      terminationMessagePolicy: 20,
      imagePullPolicy: 14,
      securityContext: pointer(15),
      stdin: 16,
      stdinOnce: 17,
      tty: 18,
    },
    [PORT]: { name: 1, hostPort: 2, containerPort: 3, protocol: 4, hostIP: 5 },
    [ENV]: { name: 1, value: 2, valueFrom: pointer(3) },
    [ENV_SOURCE]: {
      fieldRef: pointer(1),
      resourceFieldRef: pointer(2),
      configMapKeyRef: pointer(3),
      secretKeyRef: pointer(4),
    },
    [FIELD_SEL]: { apiVersion: 1, fieldPath: 2 },
    [RES_SEL]: { containerName: 1, resource: 2, divisor: 3 },
    [CM_KEY]: { LocalObjectReference: localObjectReference, key: 2, optional: pointer(3) },
    [SECRET_KEY]: { LocalObjectReference: localObjectReference, key: 2, optional: pointer(3) },
    [ENV_FROM]: { prefix: 1, configMapRef: pointer(2), secretRef: pointer(3) },
    [CM_ENV]: { LocalObjectReference: localObjectReference, optional: pointer(2) },
    [SECRET_ENV]: { LocalObjectReference: localObjectReference, optional: pointer(2) },
    [RESOURCES]: { limits: 1, requests: 2, claims: 3 },
    [MOUNT]: {
      name: 1,
      readOnly: 2,
      recursiveReadOnly: pointer(7),
      mountPath: 3,
      subPath: 4,
      mountPropagation: pointer(5),
      subPathExpr: 6,
    },
    [SEC_CTX]: {
      capabilities: pointer(1),
      privileged: pointer(2),
      seLinuxOptions: pointer(3),
      windowsOptions: pointer(10),
      runAsUser: pointer(4),
      runAsGroup: pointer(8),
      runAsNonRoot: pointer(5),
      readOnlyRootFilesystem: pointer(6),
      allowPrivilegeEscalation: pointer(7),
      procMount: pointer(9),
      seccompProfile: pointer(11),
      appArmorProfile: pointer(12),
    },
    [CAPS]: { add: 1, drop: 2 },
  },
};
