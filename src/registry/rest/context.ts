// The request context passed first on the request path (kube's context.Context with request values).

export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export interface RequestContext {
  readonly signal: AbortSignal;
  /** The namespace named in the URL; '' for cluster-scoped requests and all-namespace lists. */
  readonly namespace: string;
  readonly user: UserInfo;
  /** Adds a `Warning` header to the response (kube's warning.AddWarning). */
  addWarning(message: string): void;
  /**
   * Adds an annotation to the request's audit event (kube's audit.AddAuditAnnotation; the first
   * value of a key stays); absent when not audited. With `minLevel` 'Request', only an event at
   * level Request or above gets it (admission's AddAnnotationWithLevel).
   */
  addAuditAnnotation?(key: string, value: string, minLevel?: 'Request'): void;
  /**
   * Counts one admission webhook call's duration against the request (kube's webhook latency
   * trackers, which its SLI latency leaves out); absent where nothing tracks it.
   */
  trackWebhookLatency?(call: { mutating: boolean; ms: number }): void;
  /** When the server will end this request (epoch ms), as Go's ctx.Deadline(); watches only. */
  readonly deadline?: number;
}

export const anonymousUser: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

const apiserverUser: UserInfo = { name: 'system:apiserver', groups: ['system:masters'] };

/** A context made for the server's own reads; its signal is made only when first read. */
class InternalContext implements RequestContext {
  #signal: AbortSignal | undefined;
  readonly #parent: RequestContext | undefined;
  readonly namespace: string;
  readonly user: UserInfo;

  constructor(opts: { namespace?: string; signal?: AbortSignal; parent?: RequestContext; user?: UserInfo }) {
    this.namespace = opts.namespace ?? '';
    this.user = opts.user ?? apiserverUser;
    this.#signal = opts.signal;
    this.#parent = opts.parent;
  }

  get signal(): AbortSignal {
    // A read on behalf of a request ends with it; its signal too is made only when read.
    this.#signal ??= this.#parent?.signal ?? new AbortController().signal;
    return this.#signal;
  }

  addWarning(): void {
    // Nobody reads warnings of the server's own reads.
  }
}

/**
 * A context for callers inside the server (controllers, bootstrap, admission's reads for a request
 * given as `parent`) rather than a request. Without a signal given, one is made when first read:
 * most callers (key functions the watch cache calls per event) read only the namespace, and a
 * signal costs microseconds to make. The user is system:apiserver unless `user` names another (tests
 * acting as someone). It is a class instance, ~20 times cheaper to make than an object literal with
 * a getter (the watch cache and admission make one per call): derive contexts with this function,
 * not by spreading one, which would leave the signal behind.
 */
export function internalContext(
  opts: { namespace?: string; signal?: AbortSignal; parent?: RequestContext; user?: UserInfo } = {},
): RequestContext {
  return new InternalContext(opts);
}
