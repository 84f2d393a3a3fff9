// k8s.io/apiserver/pkg/apis/apiserver/validation: ValidateAuthorizationConfiguration and
// ValidateWebhookConfiguration over the decoded file (after v1's defaults), with kube's paths
// (a webhook's fields sit directly under `authorizers[i]`, as kube reports them).
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { formatGoDuration } from '../../machinery/time/go-duration.js';
import {
  FieldError,
  FieldPath,
  isDNS1123Subdomain,
  type ErrorList,
} from '../../machinery/validation/index.js';
import { errorText } from '../logging/error-text.js';
import { kubeAuthorizationModes, modeWebhook } from './modes.js';

/** A webhook entry as decoded, durations in milliseconds (NaN when unparsable). */
export interface WebhookEntry {
  readonly timeoutMs: number;
  readonly authorizedTTLMs: number;
  readonly unauthorizedTTLMs: number;
  readonly subjectAccessReviewVersion: string;
  readonly matchConditionSubjectAccessReviewVersion: string;
  readonly failurePolicy: string;
  readonly connectionInfo: { readonly type: string; readonly kubeConfigFile?: string };
  readonly matchConditions: readonly { readonly expression: string }[];
}

export interface AuthorizerEntry {
  readonly type: string;
  readonly name: string;
  readonly webhook?: WebhookEntry;
}

const maxTimeoutMs = 30_000;

function validateKubeConfigFile(path: FieldPath, file: string | undefined): ErrorList {
  if (file === undefined || file === '') return [FieldError.required(path, '')];
  if (!isAbsolute(file)) return [FieldError.invalid(path, file, 'must be an absolute path')];
  try {
    if (!statSync(file).isFile()) return [FieldError.invalid(path, file, 'must be a regular file')];
  } catch (err) {
    return [FieldError.invalid(path, file, `error loading file: ${errorText(err)}`)];
  }
  return [];
}

function validateConnectionInfo(path: FieldPath, c: WebhookEntry['connectionInfo']): ErrorList {
  const info = path.child('connectionInfo');
  switch (c.type) {
    case '':
      return [FieldError.required(info.child('type'), '')];
    case 'InClusterConfig':
      return c.kubeConfigFile === undefined
        ? []
        : [
            FieldError.invalid(
              info.child('kubeConfigFile'),
              c.kubeConfigFile,
              'can only be set when type=KubeConfigFile',
            ),
          ];
    case 'KubeConfigFile':
      return validateKubeConfigFile(info.child('kubeConfigFile'), c.kubeConfigFile);
    default:
      return [FieldError.notSupported(info.child('type'), c, ['InClusterConfig', 'KubeConfigFile'])];
  }
}

function validateDuration(path: FieldPath, ms: number, max?: number): ErrorList {
  if (ms === 0) return [FieldError.required(path, '')];
  if (Number.isNaN(ms)) return [FieldError.invalid(path, '', 'must be a duration')];
  if (max !== undefined && (ms > max || ms < 0))
    return [FieldError.invalid(path, formatGoDuration(ms), 'must be > 0s and <= 30s')];
  if (ms < 0) return [FieldError.invalid(path, formatGoDuration(ms), 'must be > 0s')];
  return [];
}

/** ValidateWebhookConfiguration (match conditions are checked where they compile). */
export function validateWebhookEntry(path: FieldPath, c: WebhookEntry): ErrorList {
  const errs: ErrorList = [
    ...validateDuration(path.child('timeout'), c.timeoutMs, maxTimeoutMs),
    ...validateDuration(path.child('authorizedTTL'), c.authorizedTTLMs),
    ...validateDuration(path.child('unauthorizedTTL'), c.unauthorizedTTLMs),
  ];
  const sarVersion = c.subjectAccessReviewVersion;
  if (sarVersion === '') errs.push(FieldError.required(path.child('subjectAccessReviewVersion'), ''));
  else if (sarVersion !== 'v1' && sarVersion !== 'v1beta1')
    errs.push(
      FieldError.notSupported(path.child('subjectAccessReviewVersion'), sarVersion, ['v1', 'v1beta1']),
    );
  const matchVersion = c.matchConditionSubjectAccessReviewVersion;
  if (matchVersion === '' && c.matchConditions.length > 0)
    errs.push(
      FieldError.required(
        path.child('matchConditionSubjectAccessReviewVersion'),
        'required if match conditions are specified',
      ),
    );
  else if (matchVersion !== '' && matchVersion !== 'v1')
    errs.push(
      FieldError.notSupported(path.child('matchConditionSubjectAccessReviewVersion'), matchVersion, ['v1']),
    );
  if (c.failurePolicy === '') errs.push(FieldError.required(path.child('failurePolicy'), ''));
  else if (c.failurePolicy !== 'NoOpinion' && c.failurePolicy !== 'Deny')
    errs.push(FieldError.notSupported(path.child('failurePolicy'), c.failurePolicy, ['NoOpinion', 'Deny']));
  errs.push(...validateConnectionInfo(path, c.connectionInfo));
  return errs;
}

const sortedKnownTypes = [...kubeAuthorizationModes].sort();

/** ValidateAuthorizationConfiguration with kube-apiserver's known and repeatable (Webhook) types. */
export function validateAuthorizerEntries(entries: readonly AuthorizerEntry[]): ErrorList {
  const errs: ErrorList = [];
  const root = FieldPath.of('authorizers');
  if (entries.length === 0)
    errs.push(FieldError.required(root, 'at least one authorization mode must be defined'));
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  entries.forEach((a, i) => {
    const path = root.index(i);
    if (a.type === '') {
      errs.push(FieldError.required(path.child('type'), ''));
      return;
    }
    if (!kubeAuthorizationModes.includes(a.type)) {
      errs.push(FieldError.notSupported(path.child('type'), a.type, sortedKnownTypes));
      return;
    }
    if (seenTypes.has(a.type) && a.type !== modeWebhook) {
      errs.push(FieldError.duplicate(path.child('type'), a.type));
      return;
    }
    seenTypes.add(a.type);
    const dns = isDNS1123Subdomain(a.name);
    if (a.name === '') errs.push(FieldError.required(path.child('name'), ''));
    else if (seenNames.has(a.name)) errs.push(FieldError.duplicate(path.child('name'), a.name));
    else if (dns.length > 0)
      errs.push(
        FieldError.invalid(path.child('name'), a.name, `authorizer name is invalid: ${dns.join(', ')}`),
      );
    seenNames.add(a.name);
    if (a.type === modeWebhook) {
      if (a.webhook === undefined)
        errs.push(FieldError.required(path.child('webhook'), 'required when type=Webhook'));
      else errs.push(...validateWebhookEntry(path, a.webhook));
    } else if (a.webhook !== undefined) {
      errs.push(
        FieldError.invalid(path.child('webhook'), 'non-null', 'may only be specified when type=Webhook'),
      );
    }
  });
  return errs;
}

/** LoadAndValidateData's check that a mode's entry carries the mode's name in lower case. */
export function authorizerNameErrors(entries: readonly AuthorizerEntry[]): string[] {
  return entries.flatMap((a) => {
    if (a.type === modeWebhook) return [];
    const expected = a.type.toLowerCase();
    return expected === a.name
      ? []
      : [`expected name ${expected} for authorizer ${a.type} instead of ${a.name}`];
  });
}
