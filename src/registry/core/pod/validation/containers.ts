// Containers as kube validates them (validateContainerCommon, validateContainers,
// validateInitContainers, validateProbe, validateHandler, validateLifecycle in
// pkg/apis/core/validation/validation.go); their security context in security-context.ts.
import type { Container } from '../../../../api/core/v1/container.js';
import type { Handler, HTTPGetAction, Lifecycle, Probe } from '../../../../api/core/v1/probe.js';
import type { Volume } from '../../../../api/core/v1/volume.js';
import {
  FieldError,
  isDNS1123Label,
  regexError,
  validateNonnegativeField,
  type ErrorList,
  type FieldPath,
} from '../../../../machinery/validation/index.js';
import { validatePortNumOrName, isValidPortNum } from '../../service/port-validation.js';
import { validateEnv, validateEnvFrom } from './env.js';
import { checkHostPortConflicts, validateContainerPorts } from './ports.js';
import { validateResizePolicy, validateResourceRequirements } from './resources.js';
import { validateVolumeDevices, validateVolumeMounts } from './volume-mounts.js';
import { validateSecurityContext } from './security-context.js';

const pullPolicies = ['Always', 'IfNotPresent', 'Never'];
const terminationMessagePolicies = ['File', 'FallbackToLogsOnError'];
const httpSchemes = ['HTTP', 'HTTPS'];
const httpHeaderNameRegexp = /^[-A-Za-z0-9]+$/;
const httpHeaderNameMsg = regexError(
  "a valid HTTP header must consist of alphanumeric characters or '-'",
  '[-A-Za-z0-9]+',
  'X-Header-Name',
);
/** validatePullPolicy. */
export function validatePullPolicy(policy: string | undefined, path: FieldPath): ErrorList {
  const value = policy ?? '';
  if (value === '') return [FieldError.required(path)];
  return pullPolicies.includes(value) ? [] : [FieldError.notSupported(path, value, pullPolicies)];
}

/** validateHTTPGetAction: a path, a port, a known scheme, and header names Go's HTTP library takes. */
function validateHTTPGetAction(action: HTTPGetAction, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if ((action.path ?? '') === '') errs.push(FieldError.required(path.child('path')));
  errs.push(...validatePortNumOrName(action.port, path.child('port')));
  // SetDefaults_HTTPGetAction fills an empty scheme; a body that skipped defaulting reads as HTTP.
  const scheme = action.scheme ?? 'HTTP';
  if (!httpSchemes.includes(scheme))
    errs.push(FieldError.notSupported(path.child('scheme'), scheme, httpSchemes));
  for (const header of action.httpHeaders ?? []) {
    const name = (header as Partial<typeof header>).name ?? '';
    // kube reports every bad header at the list, not at its index.
    if (!httpHeaderNameRegexp.test(name))
      errs.push(FieldError.invalid(path.child('httpHeaders'), name, httpHeaderNameMsg));
  }
  return errs;
}

/** validateHandler: exactly one action, itself valid. */
function validateHandler(
  handler: Handler & { grpc?: { port: number }; sleep?: { seconds?: number } },
  path: FieldPath,
  grace?: number,
): ErrorList {
  const errs: ErrorList = [];
  let count = 0;
  const one = (kind: string, check: () => ErrorList): void => {
    if (count > 0)
      errs.push(FieldError.forbidden(path.child(kind), 'may not specify more than 1 handler type'));
    else {
      count++;
      errs.push(...check());
    }
  };
  const { exec, httpGet, tcpSocket, grpc, sleep } = handler;
  if (exec !== undefined)
    one('exec', () =>
      (exec.command ?? []).length === 0 ? [FieldError.required(path.child('exec', 'command'))] : [],
    );
  if (httpGet !== undefined) one('httpGet', () => validateHTTPGetAction(httpGet, path.child('httpGet')));
  if (tcpSocket !== undefined)
    one('tcpSocket', () => validatePortNumOrName(tcpSocket.port, path.child('tcpSocket', 'port')));
  if (grpc !== undefined)
    one('grpc', () =>
      isValidPortNum(grpc.port).map((msg) => FieldError.invalid(path.child('grpc', 'port'), grpc.port, msg)),
    );
  if (sleep !== undefined)
    one('sleep', () => {
      // validateSleepAction with PodLifecycleSleepActionAllowZero (beta, on in 1.33).
      const seconds = sleep.seconds ?? 0;
      if (grace === undefined || (seconds >= 0 && seconds <= grace)) return [];
      const detail = `must be non-negative and less than terminationGracePeriodSeconds (${grace})`;
      return [FieldError.invalid(path.child('sleep'), seconds, detail)];
    });
  if (count === 0) errs.push(FieldError.required(path, 'must specify a handler type'));
  return errs;
}

/** validateProbe: one handler and non-negative timings. */
const probeCounts = [
  'initialDelaySeconds',
  'timeoutSeconds',
  'periodSeconds',
  'successThreshold',
  'failureThreshold',
] as const;

function validateProbe(probe: Probe | undefined, path: FieldPath): ErrorList {
  if (probe === undefined) return [];
  const errs = validateHandler(probe, path);
  for (const field of probeCounts) {
    // The path is made only for a field in error: probes are checked on every pod write.
    const value = probe[field] ?? 0;
    if (value < 0) errs.push(...validateNonnegativeField(value, path.child(field)));
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (grace !== undefined && grace <= 0)
    errs.push(
      FieldError.invalid(path.child('terminationGracePeriodSeconds'), grace, 'must be greater than 0'),
    );
  return errs;
}

/** Liveness and startup probes must also succeed once. */
function validateProbeSucceedingOnce(probe: Probe | undefined, path: FieldPath): ErrorList {
  const errs = validateProbe(probe, path);
  if (probe?.successThreshold !== undefined && probe.successThreshold !== 1)
    errs.push(FieldError.invalid(path.child('successThreshold'), probe.successThreshold, 'must be 1'));
  return errs;
}

/** Readiness probes may not end the container, so they carry no grace period. */
function validateReadinessProbe(probe: Probe | undefined, path: FieldPath): ErrorList {
  const errs = validateProbe(probe, path);
  const grace = probe?.terminationGracePeriodSeconds;
  if (grace !== undefined)
    errs.push(
      FieldError.invalid(
        path.child('terminationGracePeriodSeconds'),
        grace,
        'must not be set for readinessProbes',
      ),
    );
  return errs;
}

function validateLifecycle(lifecycle: Lifecycle | undefined, path: FieldPath, grace?: number): ErrorList {
  if (lifecycle === undefined) return [];
  const errs: ErrorList = [];
  if (lifecycle.postStart !== undefined)
    errs.push(...validateHandler(lifecycle.postStart, path.child('postStart'), grace));
  if (lifecycle.preStop !== undefined)
    errs.push(...validateHandler(lifecycle.preStop, path.child('preStop'), grace));
  return errs;
}

/** What the checks of a container read from its pod spec. */
export interface PodContext {
  volumes: ReadonlyMap<string, Volume>;
  /** The pod's restartPolicy; a resize that restarts a container is refused under Never. */
  restartPolicy?: string | undefined;
  /** The pod's securityContext.hostUsers defaulted to true; undefined when the caller did not say. */
  hostUsers?: boolean | undefined;
  /** The names of the pod's resourceClaims, which a container's resources.claims may name. */
  claimNames?: ReadonlySet<string> | undefined;
}

/** The checks every kind of container shares (validateContainerCommon). */
export function validateContainerCommon(c: Container, pod: PodContext, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  // The decoder does not enforce required fields: a body may leave the name out.
  const name = (c as Partial<Container>).name ?? '';
  if (name === '') errs.push(FieldError.required(path.child('name')));
  else for (const msg of isDNS1123Label(name)) errs.push(FieldError.invalid(path.child('name'), name, msg));
  // Only an empty image is refused: kube keeps " " valid for templates that fill it in later.
  if ((c.image ?? '') === '') errs.push(FieldError.required(path.child('image')));
  const tmp = c.terminationMessagePolicy ?? '';
  if (tmp === '') errs.push(FieldError.required(path.child('terminationMessagePolicy')));
  else if (!terminationMessagePolicies.includes(tmp))
    errs.push(
      FieldError.notSupported(path.child('terminationMessagePolicy'), tmp, terminationMessagePolicies),
    );
  errs.push(...validateContainerPorts(c.ports, path.child('ports')));
  errs.push(...validateEnv(c.env, path.child('env')));
  errs.push(...validateEnvFrom(c.envFrom, path.child('envFrom')));
  errs.push(...validateVolumeMounts(c, pod.volumes, path.child('volumeMounts')));
  errs.push(...validateVolumeDevices(c, pod.volumes, path.child('volumeDevices')));
  errs.push(...validatePullPolicy(c.imagePullPolicy, path.child('imagePullPolicy')));
  errs.push(...validateResourceRequirements(c.resources, path.child('resources'), pod.claimNames));
  errs.push(
    ...validateResizePolicy(c.resizePolicy, {
      path: path.child('resizePolicy'),
      podRestartPolicy: pod.restartPolicy,
    }),
  );
  errs.push(...validateSecurityContext(c.securityContext, path.child('securityContext'), pod.hostUsers));
  return errs;
}

/** validateContainers: at least one, names unique among them, probes and hooks valid, host ports free. */
export function validateContainers(
  containers: readonly Container[],
  at: PodContext & { path: FieldPath; grace?: number | undefined },
): ErrorList {
  const { path } = at;
  if (containers.length === 0) return [FieldError.required(path)];
  const errs: ErrorList = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, at, p));
    const name = (c as Partial<Container>).name ?? '';
    if (names.has(name)) errs.push(FieldError.duplicate(p.child('name'), name));
    else names.add(name);
    errs.push(...validateLifecycle(c.lifecycle, p.child('lifecycle'), at.grace));
    errs.push(...validateProbeSucceedingOnce(c.livenessProbe, p.child('livenessProbe')));
    errs.push(...validateReadinessProbe(c.readinessProbe, p.child('readinessProbe')));
    errs.push(...validateProbeSucceedingOnce(c.startupProbe, p.child('startupProbe')));
    if (c.restartPolicy !== undefined)
      errs.push(FieldError.forbidden(p.child('restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...checkHostPortConflicts(containers, path));
  return errs;
}

const withoutRestartAlways = 'may not be set for init containers without restartPolicy=Always';

/** validateInitContainers: names unique among all containers; hooks and probes only for sidecars. */
export function validateInitContainers(
  containers: readonly Container[] | undefined,
  at: PodContext & { regular: readonly Container[]; path: FieldPath; grace?: number | undefined },
): ErrorList {
  const errs: ErrorList = [];
  const names = new Set(at.regular.map((c) => (c as Partial<Container>).name ?? ''));
  (containers ?? []).forEach((c, i) => {
    const p = at.path.index(i);
    errs.push(...validateContainerCommon(c, at, p));
    const restartPolicy = c.restartPolicy;
    if (restartPolicy !== undefined && restartPolicy !== 'Always')
      errs.push(FieldError.notSupported(p.child('restartPolicy'), restartPolicy, ['Always']));
    const name = (c as Partial<Container>).name ?? '';
    if (names.has(name)) errs.push(FieldError.duplicate(p.child('name'), name));
    else if (name !== '') names.add(name);
    // Init containers run one by one, so each is checked alone (and kube reports index 0).
    errs.push(...checkHostPortConflicts([c], at.path));
    if (restartPolicy === 'Always') {
      errs.push(...validateLifecycle(c.lifecycle, p.child('lifecycle'), at.grace));
      errs.push(...validateProbeSucceedingOnce(c.livenessProbe, p.child('livenessProbe')));
      errs.push(...validateReadinessProbe(c.readinessProbe, p.child('readinessProbe')));
      errs.push(...validateProbeSucceedingOnce(c.startupProbe, p.child('startupProbe')));
    } else {
      for (const field of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const)
        if (c[field] !== undefined) errs.push(FieldError.forbidden(p.child(field), withoutRestartAlways));
    }
    // With InPlacePodVerticalScaling (beta, on in 1.33) kube lets init containers carry a resizePolicy.
  });
  return errs;
}
