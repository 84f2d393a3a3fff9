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
  /** Adds an annotation to the request's audit event (kube's audit.AddAuditAnnotation); absent when not audited. */
  addAuditAnnotation?(key: string, value: string): void;
  /** When the server will end this request (epoch ms), as Go's ctx.Deadline(); watches only. */
  readonly deadline?: number;
}

export const anonymousUser: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

const apiserverUser: UserInfo = { name: 'system:apiserver', groups: ['system:masters'] };

/**
 * A context for callers inside the server (controllers, bootstrap, admission's reads for a request
 * given as `parent`) rather than a request. Without a signal given, one is made when first read: most callers (key functions the watch cache calls
 * per event) read only the namespace, and a signal costs microseconds to make.
 */
export function internalContext(
  opts: { namespace?: string; signal?: AbortSignal; parent?: RequestContext } = {},
): RequestContext {
  let signal = opts.signal;
  const parent = opts.parent;
  return {
    get signal() {
      // A read on behalf of a request ends with it; its signal too is made only when read.
      signal ??= parent?.signal ?? new AbortController().signal;
      return signal;
    },
    namespace: opts.namespace ?? '',
    user: apiserverUser,
    addWarning: () => undefined,
  };
}
