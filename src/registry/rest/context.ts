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
  /** When the server will end this request (epoch ms), as Go's ctx.Deadline(); watches only. */
  readonly deadline?: number;
}

export const anonymousUser: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

/** A context for callers inside the server (controllers, bootstrap) rather than a request. */
export function internalContext(opts: { namespace?: string; signal?: AbortSignal } = {}): RequestContext {
  return {
    signal: opts.signal ?? new AbortController().signal,
    namespace: opts.namespace ?? '',
    user: { name: 'system:apiserver', groups: ['system:masters'] },
    addWarning: () => undefined,
  };
}
