// The three ways the e2e tests call kubectl against one server: as it comes, expecting success
// (its stdout), or expecting exit code 1 (its stderr), with the failing command in the message.
import assert from 'node:assert/strict';
import { kubectl as runKubectl, type KubectlResult } from './kubectl.js';

export interface KubectlSession {
  readonly kubectl: (args: readonly string[], input?: string) => Promise<KubectlResult>;
  /** Runs kubectl, asserts exit code 0 and returns stdout. */
  readonly ok: (args: readonly string[], input?: string) => Promise<string>;
  /** Runs kubectl, asserts exit code 1 and returns stderr. */
  readonly fails: (args: readonly string[], input?: string) => Promise<string>;
}

/** `kubeconfig` is read at each call: the server it names usually starts after the session is made. */
export function kubectlSession(kubeconfig: () => string): KubectlSession {
  const kubectl = (args: readonly string[], input?: string): Promise<KubectlResult> =>
    runKubectl(args, { kubeconfig: kubeconfig(), ...(input === undefined ? {} : { input }) });
  return {
    kubectl,
    ok: async (args, input) => {
      const r = await kubectl(args, input);
      assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${String(r.code)}): ${r.stderr}`);
      return r.stdout;
    },
    fails: async (args, input) => {
      const r = await kubectl(args, input);
      assert.equal(r.code, 1, `kubectl ${args.join(' ')} should exit 1: ${r.stdout}${r.stderr}`);
      return r.stderr;
    },
  };
}
