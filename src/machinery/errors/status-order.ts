// A Status as Go's encoding/json writes metav1.Status (k8s.io/apimachinery/pkg/apis/meta/v1/
// types.go): members in struct order (kind, apiVersion, metadata, status, message, reason, details,
// code) and the `omitempty` ones left out when empty. Clients compare error bodies as bytes, and
// our JSON writer keeps an object's member order, so the order is the object's.
import type { ListMeta, Status, StatusCause, StatusDetails } from '../../api/meta.js';

const isSet = (s: string | undefined): s is string => s !== undefined && s !== '';

/** ListMeta: selfLink, resourceVersion, continue, remainingItemCount (a pointer: 0 is written). */
export function orderedListMeta(m: ListMeta | undefined): ListMeta {
  const out: ListMeta = {};
  if (m === undefined) return out;
  if (isSet(m.selfLink)) out.selfLink = m.selfLink;
  if (isSet(m.resourceVersion)) out.resourceVersion = m.resourceVersion;
  if (isSet(m.continue)) out.continue = m.continue;
  if (m.remainingItemCount !== undefined) out.remainingItemCount = m.remainingItemCount;
  return out;
}

function orderedCause(c: StatusCause): StatusCause {
  const out: StatusCause = {};
  if (isSet(c.reason)) out.reason = c.reason;
  if (isSet(c.message)) out.message = c.message;
  if (isSet(c.field)) out.field = c.field;
  return out;
}

/** StatusDetails: every member omitempty, so the core group's `group` is left out. */
export function orderedStatusDetails(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (isSet(d.name)) out.name = d.name;
  if (isSet(d.group)) out.group = d.group;
  if (isSet(d.kind)) out.kind = d.kind;
  if (isSet(d.uid)) out.uid = d.uid;
  if (d.causes !== undefined && d.causes.length > 0) out.causes = d.causes.map(orderedCause);
  if (d.retryAfterSeconds !== undefined && d.retryAfterSeconds !== 0)
    out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

/**
 * The Status in Go's member order without its empty members. Details are a pointer in Go: present
 * details are written even when all their members are empty (`"details":{}`, as kube's 404 for an
 * unknown path has); a code of 0 is left out (a Success Status from a delete has none).
 */
export function orderedStatus(s: Status): Status {
  const out: Partial<Status> & Record<string, unknown> = {};
  if (isSet(s.kind)) out.kind = s.kind;
  if (isSet(s.apiVersion)) out.apiVersion = s.apiVersion;
  out.metadata = orderedListMeta(s.metadata);
  if (isSet(s.status)) out.status = s.status;
  if (isSet(s.message)) out.message = s.message;
  if (isSet(s.reason)) out.reason = s.reason;
  if (s.details !== undefined) out.details = orderedStatusDetails(s.details);
  if (s.code !== 0 && (s.code as number | undefined) !== undefined) out.code = s.code;
  return out as Status;
}

/** Whether a response object is a metav1.Status (delete, eviction and binding answers are). */
export function isStatusObject(obj: unknown): obj is Status {
  if (typeof obj !== 'object' || obj === null) return false;
  const o = obj as { kind?: unknown; apiVersion?: unknown };
  return o.kind === 'Status' && (o.apiVersion === 'v1' || o.apiVersion === undefined);
}
