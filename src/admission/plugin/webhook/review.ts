// The AdmissionReview a webhook is sent and what its answer must hold (k8s.io/apiserver/pkg/
// admission/plugin/webhook/request/admissionreview.go): v1, or v1beta1 for a webhook that lists
// only that; the answer checked for its uid, kind and patch fields before it is believed.
import { builtinScheme } from '../../../api/builtin-scheme.js';
import type { Status } from '../../../api/meta.js';
import { goJSONText } from '../../../machinery/json/go-json-text.js';
import { inGoMemberOrder, isSchemeKind } from '../../../machinery/json/go-member-order.js';
import { setMember } from '../../../machinery/json/set-member.js';
import { inSortedMemberOrder } from '../../../machinery/json/sorted-members.js';
import type { GroupVersionKind, GroupVersionResource } from '../../../machinery/schema/group-resource.js';
import type { Attributes } from '../../attributes.js';

export const admissionReviewVersions = ['v1', 'v1beta1'] as const;
export type AdmissionReviewVersion = (typeof admissionReviewVersions)[number];

/** The first version the webhook lists that is known, else undefined. */
export function negotiateReviewVersion(accepted: readonly string[]): AdmissionReviewVersion | undefined {
  for (const v of accepted) if (v === 'v1' || v === 'v1beta1') return v;
  return undefined;
}

/** What the request is sent as: the request's own kind and resource, or an equivalent's. */
export interface Invocation {
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
}

const optionsKinds = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' } as const;

/** The options' members as their Go structs order them (metav1.CreateOptions, UpdateOptions, DeleteOptions). */
const writeMembers = ['dryRun', 'fieldManager', 'fieldValidation'];
const deleteMembers = [
  'gracePeriodSeconds',
  'preconditions',
  'orphanDependents',
  'propagationPolicy',
  'dryRun',
  'ignoreStoreReadErrorWithClusterBreakingPotential',
];

/**
 * The options as kube sends them: the verb's options kind with what the request sent (a patch's as
 * UpdateOptions, or CreateOptions when it creates, as kube's patchToUpdateOptions converts them);
 * dryRun alone when the caller has no options.
 */
function requestOptions(a: Attributes): Record<string, unknown> | null {
  if (a.operation === 'CONNECT') return null;
  const out: Record<string, unknown> = { kind: optionsKinds[a.operation], apiVersion: 'meta.k8s.io/v1' };
  const sent = (a.options ?? {}) as Readonly<Record<string, unknown>>;
  for (const m of a.operation === 'DELETE' ? deleteMembers : writeMembers)
    if (sent[m] !== undefined) out[m] = sent[m];
  if (a.dryRun && out['dryRun'] === undefined) out['dryRun'] = ['All'];
  return out;
}

function userInfo(a: Attributes): Record<string, unknown> {
  const u = a.userInfo;
  const out: Record<string, unknown> = {};
  if (u.name !== '') out['username'] = u.name;
  if ((u.uid ?? '') !== '') out['uid'] = u.uid;
  if (u.groups.length > 0) out['groups'] = [...u.groups];
  if (u.extra !== undefined && Object.keys(u.extra).length > 0) out['extra'] = u.extra;
  return out;
}

/** admissionv1.AdmissionRequest in its JSON form; also what matchConditions see as `request`. */
export function admissionRequest(
  a: Attributes,
  opts: {
    uid: string;
    invocation: Invocation;
    /** The objects at the invocation's version (matchPolicy Equivalent); the request's by default. */
    versioned?: { readonly object: unknown; readonly oldObject: unknown };
  },
): Record<string, unknown> {
  const { kind, resource, subresource } = opts.invocation;
  const request: Record<string, unknown> = {
    uid: opts.uid,
    kind: { group: kind.group, version: kind.version, kind: kind.kind },
    resource: { group: resource.group, version: resource.version, resource: resource.resource },
  };
  if (subresource !== '') request['subResource'] = subresource;
  request['requestKind'] = { group: a.kind.group, version: a.kind.version, kind: a.kind.kind };
  request['requestResource'] = {
    group: a.resource.group,
    version: a.resource.version,
    resource: a.resource.resource,
  };
  if (a.subresource !== '') request['requestSubResource'] = a.subresource;
  if (a.name !== '') request['name'] = a.name;
  if (a.namespace !== '') request['namespace'] = a.namespace;
  request['operation'] = a.operation;
  request['userInfo'] = userInfo(a);
  request['object'] = opts.versioned === undefined ? a.object : opts.versioned.object;
  request['oldObject'] = opts.versioned === undefined ? a.oldObject : opts.versioned.oldObject;
  request['dryRun'] = a.dryRun;
  request['options'] = requestOptions(a);
  return request;
}

/**
 * An object as kube's codec writes it into a review: a built-in kind from its Go struct (field
 * order, the zero members Go writes), a custom resource from a map (keys sorted); a request body
 * may come in any order. A webhook's patch applies to this encoding.
 */
export function inCodecOrder(obj: unknown): unknown {
  if (typeof obj !== 'object' || obj === null) return obj;
  const scheme = builtinScheme();
  return isSchemeKind(scheme, obj) ? inGoMemberOrder(scheme, obj) : inSortedMemberOrder(obj);
}

/**
 * The review's bytes as kube sends them: Go's JSON encoding, the request's objects in its codec's
 * order. A CONNECT request's object, its options, was built in its Go struct's order already.
 */
export function reviewBody(review: Record<string, unknown>): Buffer {
  const request = review['request'] as Record<string, unknown> | undefined;
  const body =
    request === undefined || request['operation'] === 'CONNECT'
      ? review
      : {
          ...review,
          request: {
            ...request,
            object: inCodecOrder(request['object']),
            oldObject: inCodecOrder(request['oldObject']),
          },
        };
  // A built-in object's RawExtensions (a ControllerRevision's data) as they were sent.
  return Buffer.from(goJSONText(body, false, builtinScheme()), 'utf8');
}

/** The AdmissionReview body for `version`. */
export function admissionReview(
  version: AdmissionReviewVersion,
  request: Record<string, unknown>,
): Record<string, unknown> {
  return { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request };
}

export interface AdmissionResponse {
  readonly allowed: boolean;
  /** The decoded JSON patch bytes; empty when there is none. */
  readonly patch: Buffer;
  readonly patchType: string;
  readonly result: Partial<Status> | undefined;
  readonly auditAnnotations: Readonly<Record<string, string>>;
  readonly warnings: readonly string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isRecord(v)) for (const [k, s] of Object.entries(v)) if (typeof s === 'string') setMember(out, k, s);
  return out;
}

/** The fields of `response` both versions share. */
function responseFields(
  r: Record<string, unknown>,
  patch: { patch: Buffer; patchType: string },
): AdmissionResponse {
  const warnings = Array.isArray(r['warnings'])
    ? r['warnings'].filter((w): w is string => typeof w === 'string')
    : [];
  return {
    allowed: r['allowed'] === true,
    ...patch,
    result: isRecord(r['status']) ? r['status'] : undefined,
    auditAnnotations: stringMap(r['auditAnnotations']),
    warnings,
  };
}

function patchFields(
  r: Record<string, unknown>,
  mutating: boolean,
  strict: boolean,
): { patch: Buffer; patchType: string } {
  const raw = typeof r['patch'] === 'string' ? Buffer.from(r['patch'], 'base64') : Buffer.alloc(0);
  const patchType = typeof r['patchType'] === 'string' ? r['patchType'] : undefined;
  if (!strict)
    return mutating ? { patch: raw, patchType: patchType ?? '' } : { patch: Buffer.alloc(0), patchType: '' };
  if (!mutating) {
    if (raw.length > 0) throw new Error('validating webhook may not return response.patch');
    if (patchType !== undefined) throw new Error('validating webhook may not return response.patchType');
    return { patch: raw, patchType: '' };
  }
  if (raw.length > 0 && patchType === undefined)
    throw new Error('webhook returned response.patch but not response.patchType');
  if (raw.length === 0 && patchType !== undefined)
    throw new Error('webhook returned response.patchType but not response.patch');
  if (patchType === '') throw new Error('webhook returned invalid response.patchType of ""');
  return { patch: raw, patchType: patchType ?? '' };
}

/** VerifyAdmissionResponse: throws the reason a reply cannot be believed. */
export function verifyAdmissionResponse(
  review: unknown,
  opts: { uid: string; mutating: boolean; version: AdmissionReviewVersion },
): AdmissionResponse {
  const r = isRecord(review) ? review['response'] : undefined;
  if (!isRecord(r)) throw new Error('webhook response was absent');
  // v1beta1 answers were never checked for their uid or kind.
  if (opts.version === 'v1beta1') return responseFields(r, patchFields(r, opts.mutating, false));
  const uid = typeof r['uid'] === 'string' ? r['uid'] : '';
  if (uid !== opts.uid)
    throw new Error(`expected response.uid=${JSON.stringify(opts.uid)}, got ${JSON.stringify(uid)}`);
  const record = review as Record<string, unknown>;
  const apiVersion = typeof record['apiVersion'] === 'string' ? record['apiVersion'] : '';
  const kind = typeof record['kind'] === 'string' ? record['kind'] : '';
  if (apiVersion !== 'admission.k8s.io/v1' || kind !== 'AdmissionReview')
    throw new Error(
      `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${apiVersion.includes('/') ? apiVersion : `/${apiVersion}`}, Kind=${kind}`,
    );
  return responseFields(r, patchFields(r, opts.mutating, true));
}
