// What every handler of one route knows (kube's RequestScope) and what it gets per request.
import type { KubeObject } from '../../api/meta.js';
import type { AdmissionChain } from '../../admission/chain.js';
import type { RouteAdmission } from '../../admission/route-admission.js';
import type { ProtobufDecoder } from '../../machinery/protobuf/index.js';
import type {
  GroupResource,
  GroupVersionKind,
  GroupVersionResource,
} from '../../machinery/schema/group-resource.js';
import type { Storage, TableConvertor } from '../../registry/rest/capabilities.js';
import type { RequestContext, UserInfo } from '../../registry/rest/context.js';
import type { EndpointRestrictions } from '../negotiation/negotiate.js';
import type { PatchType } from '../negotiation/media-types.js';
import type { RequestInfo } from '../request/request-info.js';
import { trackWebhookLatency, type LatencyTrackers } from '../request/latency-trackers.js';
import type { KindRegistry, StructuralDecoder } from '../request/decode-object.js';
import type { Exchange } from '../responsewriters/exchange.js';
import type { FieldManagers } from '../fieldmanager/field-managers.js';
import type { PatchMechanism } from './patch-mechanism.js';
import type { Clock } from '../../machinery/time/clock.js';

/** Settings shared by every route of one server. */
export interface HandlerConfig {
  readonly maxRequestBodyBytes: number;
  /** Watches without timeoutSeconds last this long times a random factor in [1, 2). */
  readonly minRequestTimeoutSeconds: number;
  readonly kinds: KindRegistry;
  readonly structural: StructuralDecoder | undefined;
  /** Decodes protobuf request bodies of kinds with protobuf tables; none are accepted when absent. */
  readonly protobuf?: ProtobufDecoder | undefined;
  /** Patch types beyond JSON and merge patch (strategic merge, apply) plug in here. */
  readonly patchMechanisms: Partial<Record<PatchType, PatchMechanism>>;
  /** Maintains managedFields on create, update and patch; none when absent. */
  readonly fieldManagers?: FieldManagers;
  /** The admission chain the write handlers run (kube's handlers' `admit`); none when absent. */
  readonly admission?: AdmissionChain | undefined;
  /** The server's clock: a watch's timeout and deadline run on it (default: the system's). */
  readonly clock?: Clock;
  /**
   * Whether the items of a list answer keep their kind and apiVersion: custom resources
   * (unstructured) do; kube's typed lists of built-in kinds write items without them.
   */
  readonly listItemsTyped?: boolean;
  /** Bodies decode as custom resources do, unstructured (DecodeObjectOptions.unstructured). */
  readonly unstructured?: boolean;
}

export interface RequestScope {
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly kind: GroupVersionKind;
  readonly namespaced: boolean;
  readonly storage: Storage;
  readonly tableConvertor: TableConvertor | undefined;
  readonly restrictions: EndpointRestrictions;
  readonly config: HandlerConfig;
  /** The plugins of config.admission that may act on this route, with its attributes. */
  readonly admission: RouteAdmission | undefined;
  /** Sent with every request of the route: its resource version is deprecated. */
  readonly deprecationWarning?: string;
}

/**
 * The request's audit record, as the handlers fill it (kube's audit.AddAuditAnnotation,
 * LogRequestObject, LogRequestPatch).
 */
export interface RequestAuditRecord {
  annotate(key: string, value: string, minLevel?: 'Request'): void;
  /** The object a create or update sent, decoded: it names the object of the event. */
  logRequestObject?(obj: KubeObject): void;
  /** A patch's bytes as they were sent, logged as they are (at level Request and above). */
  logRequestPatch?(patch: Uint8Array): void;
  /** The object answered, whatever the media type it is written in. */
  logResponseObject?(obj: unknown): void;
}

export interface HandlerRequest {
  readonly ex: Exchange;
  readonly info: RequestInfo;
  readonly user: UserInfo;
  readonly signal: AbortSignal;
  readonly audit?: RequestAuditRecord;
  /** The request's latency trackers, when the filter chain keeps them. */
  readonly latency?: LatencyTrackers | undefined;
}

export type Handler = (scope: RequestScope, hr: HandlerRequest) => Promise<void>;

export function qualifiedResource(scope: RequestScope): GroupResource {
  return { group: scope.resource.group, resource: scope.resource.resource };
}

/** The namespace a request acts in: the URL's for namespaced resources, none otherwise. */
export function requestNamespace(scope: RequestScope, info: RequestInfo): string {
  return scope.namespaced ? info.namespace : '';
}

/**
 * The RequestContext handed to storage; warnings go out as Warning headers. The signal is read
 * through, so a request whose storage never waits makes none (each costs microseconds).
 */
export function requestContext(hr: HandlerRequest, namespace: string): RequestContext {
  return hr.audit === undefined
    ? new HandlerContext(hr, namespace)
    : new AuditedHandlerContext(hr, namespace);
}

// Classes rather than object literals: a literal's getter is defined anew on every object, in V8's
// runtime, on a path every request takes.
class HandlerContext implements RequestContext {
  readonly namespace: string;
  readonly user: UserInfo;
  protected readonly hr: HandlerRequest;

  constructor(hr: HandlerRequest, namespace: string) {
    this.hr = hr;
    this.namespace = namespace;
    this.user = hr.user;
  }

  get signal(): AbortSignal {
    return this.hr.signal;
  }

  addWarning(message: string): void {
    this.hr.ex.warnings.add(message);
  }

  trackWebhookLatency(call: { mutating: boolean; ms: number }): void {
    const t = this.hr.latency;
    if (t !== undefined) trackWebhookLatency(t, call);
  }
}

class AuditedHandlerContext extends HandlerContext {
  addAuditAnnotation(key: string, value: string, minLevel?: 'Request'): void {
    this.hr.audit?.annotate(key, value, minLevel);
  }
}
