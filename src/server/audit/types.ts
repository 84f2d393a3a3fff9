// audit.k8s.io/v1 as Capstan reads (Policy) and writes (Event) it: k8s.io/apiserver/pkg/apis/audit/v1.
import type { UserInfo } from '../../registry/rest/context.js';

export const levels = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type AuditLevel = (typeof levels)[number];

export const stages = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof stages)[number];

/** Level.Less: levels are ordered as listed. */
export const levelAtLeast = (level: AuditLevel, floor: AuditLevel): boolean =>
  levels.indexOf(level) >= levels.indexOf(floor);

export interface GroupResources {
  readonly group?: string;
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
}

export interface AuditPolicyRule {
  readonly level: AuditLevel;
  readonly users?: readonly string[];
  readonly userGroups?: readonly string[];
  readonly verbs?: readonly string[];
  readonly resources?: readonly GroupResources[];
  readonly namespaces?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
  readonly omitStages?: readonly Stage[];
  readonly omitManagedFields?: boolean;
}

export interface AuditPolicy {
  readonly rules: readonly AuditPolicyRule[];
  readonly omitStages?: readonly Stage[];
  readonly omitManagedFields?: boolean;
}

export interface AuditUser {
  /** Absent for a request no authenticator accepted (kube's `user: {}`). */
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** In Go's field order. */
export interface AuditObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code: number;
}

/** An audit Event, its members in kube's order. */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: AuditLevel;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: AuditObjectReference;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  /**
   * The request object as the bytes the client sent (kube's LogRequestPatch: runtime.Unknown{Raw}),
   * already the JSON text Go's encoder writes for them; written as requestObject, and never set
   * with it.
   */
  rawRequestObject?: string;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

export function auditUser(user: UserInfo): AuditUser {
  const out: AuditUser = { username: user.name };
  if (user.uid !== undefined && user.uid !== '') out.uid = user.uid;
  out.groups = [...user.groups];
  if (user.extra !== undefined && Object.keys(user.extra).length > 0) {
    out.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
  }
  return out;
}

/**
 * Where events go (kube's audit.Backend); it must not keep an event: later stages change it. It
 * answers whether the events were stored, as a promise when the request is to wait for that
 * (the blocking modes); a request whose RequestReceived event is not stored fails.
 */
export interface AuditSink {
  processEvents(...events: AuditEvent[]): boolean | Promise<boolean>;
  /** Called once at shutdown, after the last request. */
  close?(): void | Promise<void>;
}
