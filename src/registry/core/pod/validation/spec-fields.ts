// The pod-level fields of ValidatePodSpec (pkg/apis/core/validation/validation.go): policies,
// scheduling and identity fields, tolerations and the pod security context.
import { validateAffinity } from './affinity.js';
import type { PodSecurityContext, PodSpec, Toleration } from '../../../../api/core/v1/pod.js';
import {
  FieldError,
  goQuote,
  inclusiveRangeError,
  isDNS1123Label,
  isValidLabelValue,
  nameIsDNSSubdomain,
  omitValue,
  validateLabelName,
  validateLabels,
  type ErrorList,
  type FieldPath,
} from '../../../../machinery/validation/index.js';
import { validateID } from './containers.js';
import { validatePodDNSConfig } from './dns-config.js';
import { validateTopologySpreadConstraints } from './topology-spread.js';

const restartPolicies = ['Always', 'OnFailure', 'Never'];
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const tolerationOperators = ['Equal', 'Exists'];
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const preemptionPolicies = ['PreemptLowerPriority', 'Never'];
const maxInt32 = 2147483647;

function validateEnum(value: string | undefined, valid: readonly string[], path: FieldPath): ErrorList {
  const v = value ?? '';
  if (v === '') return [FieldError.required(path)];
  return valid.includes(v) ? [] : [FieldError.notSupported(path, v, valid)];
}

function invalidAll(messages: string[], value: string, path: FieldPath): ErrorList {
  return messages.map((msg) => FieldError.invalid(path, value, msg));
}

/** Go's %#v of the internal core.Toleration, which kube prints as the bad value of an Exists toleration. */
function goToleration(t: Toleration): string {
  const seconds = t.tolerationSeconds === undefined ? '(*int64)(nil)' : `(*int64)(${t.tolerationSeconds})`;
  return `core.Toleration{Key:${goQuote(t.key ?? '')}, Operator:${goQuote(t.operator ?? '')}, Value:${goQuote(t.value ?? '')}, Effect:${goQuote(t.effect ?? '')}, TolerationSeconds:${seconds}}`;
}

/** validateTolerations. */
export function validateTolerations(
  tolerations: readonly Toleration[] | undefined,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  (tolerations ?? []).forEach((t, i) => {
    const p = path.index(i);
    const key = t.key ?? '';
    const operator = t.operator ?? '';
    const value = t.value ?? '';
    const effect = t.effect ?? '';
    if (key !== '') errs.push(...validateLabelName(key, p.child('key')));
    if (key === '' && operator !== 'Exists')
      errs.push(
        FieldError.invalid(
          p.child('operator'),
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    if (t.tolerationSeconds !== undefined && effect !== 'NoExecute')
      errs.push(
        FieldError.invalid(
          p.child('effect'),
          effect,
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      );
    if (operator === 'Equal' || operator === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length > 0) errs.push(FieldError.invalid(p.child('operator'), value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value !== '')
        errs.push(
          new FieldError({
            type: 'FieldValueInvalid',
            field: p.child('operator').toString(),
            badValue: omitValue,
            detail: `${goToleration(t)}: value must be empty when \`operator\` is 'Exists'`,
          }),
        );
    } else {
      errs.push(FieldError.notSupported(p.child('operator'), operator, tolerationOperators));
    }
    if (effect !== '' && !taintEffects.includes(effect))
      errs.push(FieldError.notSupported(p.child('effect'), effect, taintEffects));
  });
  return errs;
}

/** validatePodSpecSecurityContext: the ids. */
function validatePodSecurityContext(sc: PodSecurityContext | undefined, path: FieldPath): ErrorList {
  if (sc === undefined) return [];
  const errs = [
    ...validateID(sc.fsGroup, path.child('fsGroup')),
    ...validateID(sc.runAsUser, path.child('runAsUser')),
    ...validateID(sc.runAsGroup, path.child('runAsGroup')),
  ];
  (sc.supplementalGroups ?? []).forEach((gid, i) =>
    errs.push(...validateID(gid, path.child('supplementalGroups').index(i))),
  );
  return errs;
}

/** The policies and scheduling fields, in ValidatePodSpec's order after the containers. */
export function validatePodSpecFields(spec: PodSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  errs.push(...validateEnum(spec.restartPolicy, restartPolicies, path.child('restartPolicy')));
  errs.push(...validateEnum(spec.dnsPolicy, dnsPolicies, path.child('dnsPolicy')));
  errs.push(...validateLabels(spec.nodeSelector, path.child('nodeSelector')));
  errs.push(...validatePodSecurityContext(spec.securityContext, path.child('securityContext')));
  errs.push(...validateAffinity(spec.affinity, path.child('affinity')));
  errs.push(...validatePodDNSConfig(spec, path.child('dnsConfig')));
  errs.push(...validateTopologySpreadConstraints(spec, path.child('topologySpreadConstraints')));
  const sa = spec.serviceAccountName ?? '';
  if (sa !== '')
    errs.push(...invalidAll(nameIsDNSSubdomain(sa, false), sa, path.child('serviceAccountName')));
  const node = spec.nodeName ?? '';
  if (node !== '') errs.push(...invalidAll(nameIsDNSSubdomain(node, false), node, path.child('nodeName')));
  const deadline = spec.activeDeadlineSeconds;
  if (deadline !== undefined && (deadline < 1 || deadline > maxInt32))
    errs.push(
      FieldError.invalid(path.child('activeDeadlineSeconds'), deadline, inclusiveRangeError(1, maxInt32)),
    );
  const hostname = spec.hostname ?? '';
  if (hostname !== '') errs.push(...invalidAll(isDNS1123Label(hostname), hostname, path.child('hostname')));
  const subdomain = spec.subdomain ?? '';
  if (subdomain !== '')
    errs.push(...invalidAll(isDNS1123Label(subdomain), subdomain, path.child('subdomain')));
  errs.push(...validateTolerations(spec.tolerations, path.child('tolerations')));
  const priorityClass = spec.priorityClassName ?? '';
  if (priorityClass !== '')
    errs.push(
      ...invalidAll(nameIsDNSSubdomain(priorityClass, false), priorityClass, path.child('priorityClassName')),
    );
  const runtimeClass = spec.runtimeClassName;
  if (runtimeClass !== undefined)
    errs.push(
      ...invalidAll(nameIsDNSSubdomain(runtimeClass, false), runtimeClass, path.child('runtimeClassName')),
    );
  if (spec.preemptionPolicy !== undefined)
    errs.push(...validateEnum(spec.preemptionPolicy, preemptionPolicies, path.child('preemptionPolicy')));
  const grace = spec.terminationGracePeriodSeconds;
  if (grace !== undefined && grace < 0)
    errs.push(
      FieldError.invalid(
        path.child('terminationGracePeriodSeconds'),
        grace,
        'must be greater than or equal to 0',
      ),
    );
  return errs;
}
