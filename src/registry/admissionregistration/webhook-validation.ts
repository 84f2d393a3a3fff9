// Webhook configuration validation (pkg/apis/admissionregistration/validation/validation.go) and the
// v1 defaults (pkg/apis/admissionregistration/v1/defaults.go). The admission plugins under src/admission/plugin/webhook call them.
import type {
  MutatingWebhook,
  MutatingWebhookConfiguration,
  ValidatingWebhook,
  ValidatingWebhookConfiguration,
} from '../../api/admissionregistration/v1/webhook.js';
import { validateLabelSelector } from '../../machinery/labels/validate-label-selector.js';
import {
  FieldError,
  FieldPath,
  isDNS1035Label,
  isDNS1123Subdomain,
  type ErrorList,
} from '../../machinery/validation/index.js';
import { defaultRule, validateMatchConditions, validateRuleWithOperations } from './rules.js';
import { validateWebhookService, validateWebhookURL } from './webhook-client.js';

export const supportedFailurePolicies = ['Fail', 'Ignore'];
export const supportedMatchPolicies = ['Equivalent', 'Exact'];
const noSideEffectClasses = ['None', 'NoneOnDryRun'];
const supportedSideEffectClasses = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const supportedReinvocationPolicies = ['IfNeeded', 'Never'];
const acceptedAdmissionReviewVersions = ['v1', 'v1beta1'];

/** What an update relaxes when the stored object already broke a newer rule. */
export interface WebhookValidationOptions {
  readonly requireNoSideEffects: boolean;
  readonly requireRecognizedAdmissionReviewVersion: boolean;
  readonly requireUniqueWebhookNames: boolean;
}

export const createOptions: WebhookValidationOptions = {
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
};

/** IsFullyQualifiedName: a DNS subdomain of at least three segments. */
export function validateFullyQualifiedName(path: FieldPath, name: string): ErrorList {
  if (name === '') return [FieldError.required(path, '')];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [FieldError.invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3)
    return [
      FieldError.invalid(path, name, 'should be a domain with at least three segments separated by dots'),
    ];
  return [];
}

/** validateAdmissionReviewVersions. */
function validateAdmissionReviewVersions(
  versions: readonly string[],
  opts: { requireRecognized: boolean; path: FieldPath },
): ErrorList {
  const { path } = opts;
  if (versions.length === 0)
    return [FieldError.required(path, `must specify one of ${acceptedAdmissionReviewVersions.join(', ')}`)];
  const errs: ErrorList = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(FieldError.invalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(FieldError.invalid(path.index(i), v, msg));
  });
  if (opts.requireRecognized && !versions.some((v) => acceptedAdmissionReviewVersions.includes(v)))
    errs.push(
      FieldError.invalid(
        path,
        versions,
        `must include at least one of ${acceptedAdmissionReviewVersions.join(', ')}`,
      ),
    );
  return errs;
}

/** validateValidatingWebhook / validateMutatingWebhook (the mutating one adds reinvocationPolicy). */
function validateWebhook(hook: MutatingWebhook, opts: WebhookValidationOptions, path: FieldPath): ErrorList {
  const errs = validateFullyQualifiedName(path.child('name'), typeof hook.name === 'string' ? hook.name : '');
  (hook.rules ?? []).forEach((rule, i) => {
    errs.push(...validateRuleWithOperations(rule, path.child('rules').index(i)));
  });
  if (hook.failurePolicy !== undefined && !supportedFailurePolicies.includes(hook.failurePolicy))
    errs.push(
      FieldError.notSupported(path.child('failurePolicy'), hook.failurePolicy, supportedFailurePolicies),
    );
  if (hook.matchPolicy !== undefined && !supportedMatchPolicies.includes(hook.matchPolicy))
    errs.push(FieldError.notSupported(path.child('matchPolicy'), hook.matchPolicy, supportedMatchPolicies));
  const allowedSideEffects = opts.requireNoSideEffects ? noSideEffectClasses : supportedSideEffectClasses;
  if (hook.sideEffects === undefined)
    errs.push(
      FieldError.required(path.child('sideEffects'), `must specify one of ${allowedSideEffects.join(', ')}`),
    );
  else if (!allowedSideEffects.includes(hook.sideEffects))
    errs.push(FieldError.notSupported(path.child('sideEffects'), hook.sideEffects, allowedSideEffects));
  const timeout = hook.timeoutSeconds;
  if (timeout !== undefined && (timeout > 30 || timeout < 1))
    errs.push(
      FieldError.invalid(
        path.child('timeoutSeconds'),
        timeout,
        'the timeout value must be between 1 and 30 seconds',
      ),
    );
  errs.push(
    ...validateLabelSelector(hook.namespaceSelector, path.child('namespaceSelector')),
    ...validateLabelSelector(hook.objectSelector, path.child('objectSelector')),
  );
  if (
    hook.reinvocationPolicy !== undefined &&
    !supportedReinvocationPolicies.includes(hook.reinvocationPolicy)
  )
    errs.push(
      FieldError.notSupported(
        path.child('reinvocationPolicy'),
        hook.reinvocationPolicy,
        supportedReinvocationPolicies,
      ),
    );
  const cc = (hook.clientConfig as ValidatingWebhook['clientConfig'] | undefined) ?? {};
  const cPath = path.child('clientConfig');
  if ((cc.url === undefined) === (cc.service === undefined))
    errs.push(FieldError.required(cPath, 'exactly one of url or service is required'));
  else if (cc.url !== undefined) errs.push(...validateWebhookURL(cPath.child('url'), cc.url));
  else if (cc.service !== undefined) errs.push(...validateWebhookService(cPath.child('service'), cc.service));
  errs.push(...validateMatchConditions(hook.matchConditions ?? [], path.child('matchConditions')));
  return errs;
}

/** validateValidatingWebhookConfiguration / validateMutatingWebhookConfiguration, without metadata. */
export function validateWebhookConfiguration(
  config: ValidatingWebhookConfiguration | MutatingWebhookConfiguration,
  opts: WebhookValidationOptions,
): ErrorList {
  const errs: ErrorList = [];
  const names = new Set<string>();
  (config.webhooks ?? []).forEach((hook, i) => {
    const path = FieldPath.of('webhooks').index(i);
    errs.push(
      ...validateWebhook(hook, opts, path),
      ...validateAdmissionReviewVersions(hook.admissionReviewVersions ?? [], {
        requireRecognized: opts.requireRecognizedAdmissionReviewVersion,
        path: path.child('admissionReviewVersions'),
      }),
    );
    const name = (hook.name as string | undefined) ?? '';
    if (opts.requireUniqueWebhookNames && name !== '') {
      if (names.has(name)) errs.push(FieldError.duplicate(path.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

/** The options an update validates with: what the stored object already satisfied. */
export function updateOptions(
  old: ValidatingWebhookConfiguration | MutatingWebhookConfiguration,
): WebhookValidationOptions {
  const hooks = old.webhooks ?? [];
  const names = hooks.map((h) => h.name);
  return {
    requireNoSideEffects: hooks.every(
      (h) => h.sideEffects !== undefined && noSideEffectClasses.includes(h.sideEffects),
    ),
    requireRecognizedAdmissionReviewVersion: hooks.every((h) => {
      const versions = h.admissionReviewVersions ?? [];
      return versions.length === 0 || versions.some((v) => acceptedAdmissionReviewVersions.includes(v));
    }),
    requireUniqueWebhookNames: new Set(names).size === names.length,
  };
}

/** v1 defaults of a webhook: Fail, Equivalent, empty selectors, 10 seconds, port 443, scope "*". */
export function defaultWebhook(hook: MutatingWebhook, mutating: boolean): void {
  hook.failurePolicy ??= 'Fail';
  hook.matchPolicy ??= 'Equivalent';
  hook.namespaceSelector ??= {};
  hook.objectSelector ??= {};
  hook.timeoutSeconds ??= 10;
  if (mutating) hook.reinvocationPolicy ??= 'Never';
  const service = (hook.clientConfig as ValidatingWebhook['clientConfig'] | undefined)?.service;
  if (service !== undefined) service.port ??= 443;
  for (const rule of hook.rules ?? []) defaultRule(rule);
}

export function defaultWebhookConfiguration(
  config: ValidatingWebhookConfiguration | MutatingWebhookConfiguration,
  mutating: boolean,
): void {
  for (const hook of config.webhooks ?? []) defaultWebhook(hook, mutating);
}
