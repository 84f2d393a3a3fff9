// One request's audit record as the filters fill it (kube's AuditContext): the event, the stages
// still to write, and the annotations and impersonated user the inner filters add.
import { builtinScheme } from '../../api/builtin-scheme.js';
import { compactGoJSON } from '../../machinery/json/go-compact.js';
import { inBuiltinGoOrder } from '../../machinery/json/go-member-order.js';
import type { UserInfo } from '../../registry/rest/context.js';
import type { RequestAuditConfig } from './policy-checker.js';
import {
  auditUser,
  levelAtLeast,
  type AuditEvent,
  type AuditLevel,
  type AuditObjectReference,
  type AuditSink,
  type ResponseStatus,
  type Stage,
} from './types.js';

/** metav1.MicroTime: RFC 3339 with microseconds, UTC. */
export function microTime(epochMicros: number): string {
  const ms = Math.floor(epochMicros / 1000);
  const micros = String(Math.floor(epochMicros) % 1_000_000).padStart(6, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${micros}Z`;
}

export const nowMicros = (): number => Math.floor((performance.timeOrigin + performance.now()) * 1000);

function withoutManagedFields(obj: unknown): unknown {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return obj;
  const o = obj as Record<string, unknown>;
  const meta = o.metadata as Record<string, unknown> | undefined;
  let out: Record<string, unknown> = o;
  if (meta !== undefined && typeof meta === 'object' && 'managedFields' in meta) {
    const { managedFields: _omitted, ...rest } = meta;
    out = { ...o, metadata: rest };
  }
  if (Array.isArray(o.items)) out = { ...out, items: o.items.map(withoutManagedFields) };
  return out;
}

/**
 * An object a handler decoded or answered, as kube's audit encodes it (encodeObject: the object's
 * codec): a built-in kind from its Go struct (member order, omitempty, the zero members Go writes,
 * a template's `"creationTimestamp":null`); anything else as it is.
 */
function encodedObject(obj: unknown): unknown {
  return inBuiltinGoOrder(builtinScheme(), obj);
}

/** The event's members in the order kube's JSON has them, whatever order they were set in. */
function inKubeOrder(e: AuditEvent): AuditEvent {
  const opt = <K extends keyof AuditEvent>(k: K): Partial<AuditEvent> =>
    e[k] === undefined ? {} : { [k]: e[k] };
  return {
    kind: e.kind,
    apiVersion: e.apiVersion,
    level: e.level,
    auditID: e.auditID,
    stage: e.stage,
    requestURI: e.requestURI,
    verb: e.verb,
    user: e.user,
    ...opt('impersonatedUser'),
    sourceIPs: e.sourceIPs,
    ...opt('userAgent'),
    ...opt('objectRef'),
    ...opt('responseStatus'),
    ...opt('requestObject'),
    ...opt('rawRequestObject'),
    ...opt('responseObject'),
    requestReceivedTimestamp: e.requestReceivedTimestamp,
    stageTimestamp: e.stageTimestamp,
    ...opt('annotations'),
  };
}

export class RequestAudit {
  readonly event: AuditEvent;
  readonly config: RequestAuditConfig;
  readonly #sink: AuditSink;
  readonly #omit: ReadonlySet<Stage>;

  constructor(event: AuditEvent, config: RequestAuditConfig, sink: AuditSink) {
    this.event = event;
    this.config = config;
    this.#sink = sink;
    this.#omit = new Set(config.omitStages);
  }

  get logsRequest(): boolean {
    return levelAtLeast(this.config.level, 'Request');
  }

  get logsResponse(): boolean {
    return this.config.level === 'RequestResponse';
  }

  /** The first value of a key stays (kube's audit context); `minLevel` drops it below that level. */
  annotate(key: string, value: string, minLevel: AuditLevel = 'Metadata'): void {
    if (!levelAtLeast(this.config.level, minLevel)) return;
    const annotations = (this.event.annotations ??= {});
    if (!Object.hasOwn(annotations, key)) annotations[key] = value;
  }

  impersonate(user: UserInfo): void {
    this.event.impersonatedUser = auditUser(user);
  }

  /**
   * LogRequestObject's completion of objectRef from the object a create or update sent: its
   * namespace, name, uid and resourceVersion where the URL said none (at every level that logs).
   */
  objectRefFrom(obj: unknown): void {
    const ref = this.event.objectRef;
    if (ref === undefined || obj === null || typeof obj !== 'object') return;
    const meta = (obj as { metadata?: unknown }).metadata;
    if (meta === null || typeof meta !== 'object') return;
    const m = meta as Record<string, unknown>;
    const pick = (own: string | undefined, key: string): string | undefined => {
      if (own !== undefined && own !== '') return own;
      const v = m[key];
      return typeof v === 'string' && v !== '' ? v : undefined;
    };
    const filled: Record<keyof AuditObjectReference, string | undefined> = {
      resource: ref.resource,
      namespace: pick(ref.namespace, 'namespace'),
      name: pick(ref.name, 'name'),
      uid: pick(ref.uid, 'uid'),
      apiGroup: ref.apiGroup,
      apiVersion: ref.apiVersion,
      resourceVersion: pick(ref.resourceVersion, 'resourceVersion'),
      subresource: ref.subresource,
    };
    const out: AuditObjectReference = {};
    for (const [k, v] of Object.entries(filled) as [keyof AuditObjectReference, string | undefined][])
      if (v !== undefined) out[k] = v;
    this.event.objectRef = out;
  }

  /**
   * kube's LogRequestObject, called by the handlers with the decoded body of a create or update
   * (or a delete's options): objectRef is completed from it, and it is the request object, as kube
   * encodes it. A body that does not decode is not logged.
   */
  logRequestObject(obj: unknown): void {
    this.objectRefFrom(obj);
    // A copy: the handler goes on changing its object.
    if (
      this.logsRequest &&
      this.event.requestObject === undefined &&
      this.event.rawRequestObject === undefined
    )
      this.requestObject(encodedObject(structuredClone(obj)));
  }

  /**
   * kube's LogRequestPatch, called by the patch handler with the bytes it read: they are the
   * request object, written as Go's encoder writes a runtime.Unknown (compacted), managedFields
   * and all. Bytes that are not JSON (an apply patch in YAML) are not logged: kube 1.33's encoder
   * fails on them, and its backends drop the whole event.
   */
  logRequestPatch(patch: Uint8Array): void {
    if (!this.logsRequest) return;
    const text = compactGoJSON(patch);
    if (text === undefined) return;
    delete this.event.requestObject;
    this.event.rawRequestObject = text;
  }

  /** kube's LogResponseObject from the handler: the filter replaces it with the JSON written, if JSON. */
  logResponseObject(obj: unknown): void {
    // Ordered only where it is logged (RequestResponse): a Status is read at every level.
    this.responseObject(this.logsResponse ? encodedObject(obj) : obj);
  }

  requestObject(obj: unknown): void {
    if (this.logsRequest)
      this.event.requestObject = this.config.omitManagedFields ? withoutManagedFields(obj) : obj;
  }

  /** LogResponseObject: a Status fills responseStatus at Metadata; the object itself only at RequestResponse. */
  responseObject(obj: unknown): void {
    if (typeof obj === 'object' && obj !== null && (obj as { kind?: unknown }).kind === 'Status') {
      const o = obj as Partial<ResponseStatus>;
      this.event.responseStatus = {
        metadata: {},
        ...(o.status === undefined ? {} : { status: o.status }),
        ...(o.message === undefined ? {} : { message: o.message }),
        ...(o.reason === undefined ? {} : { reason: o.reason }),
        ...(o.details === undefined ? {} : { details: o.details }),
        code: o.code ?? 0,
      };
    }
    if (this.logsResponse)
      this.event.responseObject = this.config.omitManagedFields ? withoutManagedFields(obj) : obj;
  }

  /** The HTTP code wins over a Status body's (kube's auditResponseWriter.processCode). */
  responseCode(code: number): void {
    if (this.event.responseStatus === undefined) this.event.responseStatus = { metadata: {}, code };
    else this.event.responseStatus.code = code;
  }

  /**
   * Writes the event at `stage` unless the policy omits it; whether it was stored (a promise when
   * the backend makes the request wait).
   */
  stage(stage: Stage): boolean | Promise<boolean> {
    if (this.#omit.has(stage)) return true;
    this.event.stage = stage;
    // kube's ProcessEventStage: RequestReceived's stage time is the time the request was received.
    this.event.stageTimestamp =
      stage === 'RequestReceived' ? this.event.requestReceivedTimestamp : microTime(nowMicros());
    return this.#sink.processEvents(inKubeOrder(this.event));
  }
}
