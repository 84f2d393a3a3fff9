// Container environment as kube validates it (ValidateEnv, ValidateEnvFrom, validateEnvVarValueFrom,
// validateObjectFieldSelector in pkg/apis/core/validation/validation.go), with the relaxed variable
// names (RelaxedEnvironmentVariableValidation, on by default since 1.32).
import type { EnvFromSource, EnvVar, KeySelector } from '../../../../api/core/v1/container.js';
import {
  FieldError,
  emptyError,
  isQualifiedName,
  nameIsDNSSubdomain,
  type ErrorList,
  type FieldPath,
} from '../../../../machinery/validation/index.js';
import { isConfigMapKey } from '../../configmap/config-map-key.js';
import { validateResourceFieldSelector } from './resources.js';

const relaxedEnvVarNameErrMsg =
  "a valid environment variable name must consist only of printable ASCII characters other than '='";

/** IsRelaxedEnvVarName: printable ASCII (space to tilde) except '='. */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push(`environment variable name ${emptyError()}`);
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code > 0x7e || ch === '=') {
      errs.push(relaxedEnvVarNameErrMsg);
      break;
    }
  }
  return errs;
}

/** The downward API fields an env var may read (validEnvDownwardAPIFieldPathExpressions). */
const envFieldPaths = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];

/** The fields a downward API volume file may read (validVolumeDownwardAPIFieldPathExpressions). */
export const volumeFieldPaths = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
];

/** Every field label ConvertDownwardAPIFieldLabel knows for v1 pods, besides subscripted ones. */
const convertibleFieldPaths = new Set([
  ...volumeFieldPaths,
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]);

/**
 * fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['app']` → [`metadata.labels`, `app`]; the
 * `['` is looked for before the closing `']`, and a path must precede it.
 */
function splitSubscript(path: string): [string, string] | undefined {
  if (!path.endsWith("']")) return undefined;
  const inner = path.slice(0, -2);
  const open = inner.indexOf("['");
  if (open <= 0) return undefined;
  return [inner.slice(0, open), inner.slice(open + 2)];
}

/** validateObjectFieldSelector, `allowed` being the unsubscripted paths this user may read. */
export function validateObjectFieldSelector(
  fs: { apiVersion?: string; fieldPath?: string },
  allowed: readonly string[],
  path: FieldPath,
): ErrorList {
  // SetDefaults_ObjectFieldSelector fills an empty apiVersion with v1.
  const given = fs.apiVersion ?? '';
  const apiVersion = given === '' ? 'v1' : given;
  const fieldPath = fs.fieldPath ?? '';
  if (fieldPath === '') return [FieldError.required(path.child('fieldPath'))];
  const fpPath = path.child('fieldPath');
  if (apiVersion !== 'v1')
    return [
      FieldError.invalid(
        fpPath,
        fieldPath,
        `error converting fieldPath: unsupported pod version: ${apiVersion}`,
      ),
    ];
  const split = splitSubscript(fieldPath);
  if (split !== undefined) {
    const [base, subscript] = split;
    if (base === 'metadata.annotations')
      return isQualifiedName(subscript.toLowerCase()).map((m) =>
        FieldError.invalid(path, subscript.toLowerCase(), m),
      );
    if (base === 'metadata.labels')
      return isQualifiedName(subscript).map((m) => FieldError.invalid(path, subscript, m));
    return [
      FieldError.invalid(
        fpPath,
        fieldPath,
        `error converting fieldPath: field label does not support subscript: ${fieldPath}`,
      ),
    ];
  }
  // Old v1 clients' spec.host converts to spec.nodeName.
  if (fieldPath === 'spec.host')
    return allowed.includes('spec.nodeName')
      ? []
      : [FieldError.notSupported(fpPath, 'spec.nodeName', allowed)];
  if (!convertibleFieldPaths.has(fieldPath))
    return [
      FieldError.invalid(
        fpPath,
        fieldPath,
        `error converting fieldPath: field label not supported: ${fieldPath}`,
      ),
    ];
  if (!allowed.includes(fieldPath)) return [FieldError.notSupported(fpPath, fieldPath, allowed)];
  return [];
}

/** validateConfigMapKeySelector / validateSecretKeySelector. */
function validateKeySelector(s: KeySelector, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const name = s.name ?? '';
  for (const msg of nameIsDNSSubdomain(name, false))
    errs.push(FieldError.invalid(path.child('name'), name, msg));
  const key = (s as Partial<KeySelector>).key ?? '';
  if (key === '') errs.push(FieldError.required(path.child('key')));
  else for (const msg of isConfigMapKey(key)) errs.push(FieldError.invalid(path.child('key'), key, msg));
  return errs;
}

/** validateEnvVarValueFrom: exactly one source, and no `value` beside it. */
function validateValueFrom(ev: EnvVar, path: FieldPath): ErrorList {
  const from = ev.valueFrom;
  if (from === undefined) return [];
  const errs: ErrorList = [];
  let sources = 0;
  if (from.fieldRef !== undefined) {
    sources++;
    errs.push(...validateObjectFieldSelector(from.fieldRef, envFieldPaths, path.child('fieldRef')));
  }
  if (from.resourceFieldRef !== undefined) {
    sources++;
    errs.push(
      ...validateResourceFieldSelector(from.resourceFieldRef, {
        path: path.child('resourceFieldRef'),
        volume: false,
      }),
    );
  }
  if (from.configMapKeyRef !== undefined) {
    sources++;
    errs.push(...validateKeySelector(from.configMapKeyRef, path.child('configMapKeyRef')));
  }
  if (from.secretKeyRef !== undefined) {
    sources++;
    errs.push(...validateKeySelector(from.secretKeyRef, path.child('secretKeyRef')));
  }
  if (sources === 0)
    errs.push(
      FieldError.invalid(
        path,
        '',
        'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ),
    );
  else if ((ev.value ?? '') !== '')
    errs.push(FieldError.invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1)
    errs.push(FieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

/** ValidateEnv: named variables, each value from at most one source. */
export function validateEnv(vars: readonly EnvVar[] | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  (vars ?? []).forEach((ev, i) => {
    const p = path.index(i);
    const name = (ev as Partial<EnvVar>).name ?? '';
    if (name === '') errs.push(FieldError.required(p.child('name')));
    else
      for (const msg of isRelaxedEnvVarName(name)) errs.push(FieldError.invalid(p.child('name'), name, msg));
    errs.push(...validateValueFrom(ev, p.child('valueFrom')));
  });
  return errs;
}

/**
 * validateConfigMapEnvSource / validateSecretEnvSource: a name, checked as kube checks it, as a
 * name prefix (so a trailing '-' passes).
 */
function validateEnvSource(ref: { name?: string }, path: FieldPath): ErrorList {
  const name = ref.name ?? '';
  if (name === '') return [FieldError.required(path.child('name'))];
  return nameIsDNSSubdomain(name, true).map((msg) => FieldError.invalid(path.child('name'), name, msg));
}

/** ValidateEnvFrom: a valid prefix and exactly one of configMapRef and secretRef. */
export function validateEnvFrom(vars: readonly EnvFromSource[] | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  (vars ?? []).forEach((ev, i) => {
    const p = path.index(i);
    const prefix = ev.prefix ?? '';
    if (prefix !== '')
      for (const msg of isRelaxedEnvVarName(prefix))
        errs.push(FieldError.invalid(p.child('prefix'), prefix, msg));
    let sources = 0;
    if (ev.configMapRef !== undefined) {
      sources++;
      errs.push(...validateEnvSource(ev.configMapRef, p.child('configMapRef')));
    }
    if (ev.secretRef !== undefined) {
      sources++;
      errs.push(...validateEnvSource(ev.secretRef, p.child('secretRef')));
    }
    if (sources === 0)
      errs.push(FieldError.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1)
      errs.push(FieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
