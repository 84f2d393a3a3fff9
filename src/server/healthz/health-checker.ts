// Named health checks (k8s.io/apiserver/pkg/server/healthz/healthz.go HealthChecker).

export interface HealthChecker {
  readonly name: string;
  /** Served on /readyz only, not /healthz or /livez (kube's AddReadyzChecks: `etcd-readiness`). */
  readonly readyzOnly?: boolean;
  /** Resolves when healthy; rejects with the reason (logged, never shown on the aggregate page). */
  check(): Promise<void>;
}

export function namedCheck(name: string, check: () => Promise<void> | void): HealthChecker {
  return { name, check: async () => check() };
}

/** The same check, served on /readyz only. */
export function readyzOnly(checker: HealthChecker): HealthChecker {
  return { ...checker, readyzOnly: true };
}

export const pingCheck: HealthChecker = namedCheck('ping', () => undefined);

/** Fails a check that has not answered within `ms` (a hung storage must not hang /readyz). */
export function withCheckTimeout(checker: HealthChecker, ms: number): HealthChecker {
  return {
    name: checker.name,
    ...(checker.readyzOnly === true ? { readyzOnly: true } : {}),
    check: () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`health check timed out after ${ms}ms`));
        }, ms);
        checker
          .check()
          .then(resolve, reject)
          .finally(() => {
            clearTimeout(timer);
          });
      }),
  };
}

/** kube's `log` check: fails when log output has been blocked for two minutes. */
export function logCheck(blockedForMs: () => number): HealthChecker {
  return namedCheck('log', () => {
    if (blockedForMs() >= 120_000) throw new Error('logging blocked');
  });
}
