// An audit Event's JSON as kube's log and webhook backends write it: encoding/json of the
// audit.k8s.io/v1 Event (k8s.io/apiserver/pkg/apis/audit/v1 types.go) through the JSON serializer,
// so members in struct order at every level, omitempty members left out when empty, maps (user
// extra, annotations) with their keys sorted, HTML characters escaped. requestObject and
// responseObject are runtime.Unknown: the JSON kube encoded the object to, or a patch's bytes,
// written as they are (compacted).
import { builtinScheme } from '../../api/builtin-scheme.js';
import { orderedStatusDetails } from '../../machinery/errors/status-order.js';
import { goJSONText } from '../../machinery/json/go-json-text.js';
import { setMember } from '../../machinery/json/set-member.js';
import { compareGoKeys } from '../../machinery/json/sorted-members.js';
import type { AuditEvent, AuditObjectReference, AuditUser, ResponseStatus } from './types.js';

const isSet = (s: string | undefined): s is string => s !== undefined && s !== '';

function sortedMap<V>(map: Readonly<Record<string, V>>, value: (v: V) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(map).sort(compareGoKeys)) setMember(out, key, value(map[key] as V));
  return out;
}

/** authentication/v1 UserInfo: username, uid, groups, extra (a map), every one omitempty. */
function userJSON(u: AuditUser): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isSet(u.username)) out['username'] = u.username;
  if (isSet(u.uid)) out['uid'] = u.uid;
  if (u.groups !== undefined && u.groups.length > 0) out['groups'] = u.groups;
  if (u.extra !== undefined && Object.keys(u.extra).length > 0) out['extra'] = sortedMap(u.extra, (v) => v);
  return out;
}

const objectRefMembers = [
  'resource',
  'namespace',
  'name',
  'uid',
  'apiGroup',
  'apiVersion',
  'resourceVersion',
  'subresource',
] as const satisfies readonly (keyof AuditObjectReference)[];

/** audit/v1 ObjectReference: every member omitempty. */
function objectRefJSON(ref: AuditObjectReference): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of objectRefMembers) if (isSet(ref[k])) out[k] = ref[k];
  return out;
}

/**
 * metav1.Status as kube's audit copies it (status, message, reason, details, code; no TypeMeta):
 * metadata (a struct: `{}`), then the others, each omitempty (a code of 0 too); details a pointer.
 */
function responseStatusJSON(s: ResponseStatus): Record<string, unknown> {
  const out: Record<string, unknown> = { metadata: {} };
  if (isSet(s.status)) out['status'] = s.status;
  if (isSet(s.message)) out['message'] = s.message;
  if (isSet(s.reason)) out['reason'] = s.reason;
  if (typeof s.details === 'object' && s.details !== null) out['details'] = orderedStatusDetails(s.details);
  if (s.code !== 0) out['code'] = s.code;
  return out;
}

/** The Event's JSON text, without a line break. */
export function auditEventJSON(e: AuditEvent): string {
  const scheme = builtinScheme();
  const members: [string, string][] = [
    ['kind', goJSONText(e.kind)],
    ['apiVersion', goJSONText(e.apiVersion)],
    ['level', goJSONText(e.level)],
    ['auditID', goJSONText(e.auditID)],
    ['stage', goJSONText(e.stage)],
    ['requestURI', goJSONText(e.requestURI)],
    ['verb', goJSONText(e.verb)],
    ['user', goJSONText(userJSON(e.user))],
  ];
  if (e.impersonatedUser !== undefined)
    members.push(['impersonatedUser', goJSONText(userJSON(e.impersonatedUser))]);
  if (e.sourceIPs.length > 0) members.push(['sourceIPs', goJSONText(e.sourceIPs)]);
  if (isSet(e.userAgent)) members.push(['userAgent', goJSONText(e.userAgent)]);
  if (e.objectRef !== undefined) members.push(['objectRef', goJSONText(objectRefJSON(e.objectRef))]);
  if (e.responseStatus !== undefined)
    members.push(['responseStatus', goJSONText(responseStatusJSON(e.responseStatus))]);
  // A built-in object's RawExtension contents keep their order (raw-extension-contents.ts); a
  // body logged as its bytes is already the text Go writes.
  if (e.rawRequestObject !== undefined) members.push(['requestObject', e.rawRequestObject]);
  else if (e.requestObject !== undefined)
    members.push(['requestObject', goJSONText(e.requestObject, false, scheme)]);
  if (e.responseObject !== undefined)
    members.push(['responseObject', goJSONText(e.responseObject, false, scheme)]);
  members.push(['requestReceivedTimestamp', goJSONText(e.requestReceivedTimestamp)]);
  members.push(['stageTimestamp', goJSONText(e.stageTimestamp)]);
  if (e.annotations !== undefined && Object.keys(e.annotations).length > 0)
    members.push(['annotations', goJSONText(sortedMap(e.annotations, (v) => v))]);
  return `{${members.map(([k, v]) => `"${k}":${v}`).join(',')}}`;
}
