// A long-running kubectl (`get -w`, `wait`) whose output a test reads while it runs: wait until
// stdout or stderr matches, then stop it or let it exit.
import { spawn } from 'node:child_process';
import { kubectlEnv, locateKubectl, type KubectlOptions, type KubectlResult } from './kubectl.js';

export interface KubectlStream {
  /** Resolves with all of stdout so far once it matches; rejects on timeout or if kubectl exits first. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** The same for stderr (where `-v=6` request logs go). */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves when kubectl exits by itself. */
  readonly exited: Promise<KubectlResult>;
  /** Sends SIGTERM (if still running) and resolves with what it printed. */
  stop(): Promise<KubectlResult>;
}

interface Waiter {
  readonly stream: 'stdout' | 'stderr';
  readonly pattern: RegExp;
  readonly resolve: (text: string) => void;
  readonly reject: (err: Error) => void;
}

/** Starts kubectl without waiting for it to exit. */
export async function spawnKubectl(args: readonly string[], opts: KubectlOptions): Promise<KubectlStream> {
  const binary = await locateKubectl();
  const child = spawn(binary, [...args], {
    env: kubectlEnv(opts),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  let waiters: Waiter[] = [];
  const settle = (): void => {
    waiters = waiters.filter((w) => {
      if (!w.pattern.test(out[w.stream])) return true;
      w.resolve(out[w.stream]);
      return false;
    });
  };
  child.stdout.on('data', (d: Buffer) => {
    out.stdout += d.toString();
    settle();
  });
  child.stderr.on('data', (d: Buffer) => {
    out.stderr += d.toString();
    settle();
  });
  const exited = new Promise<KubectlResult>((resolve) => {
    child.on('close', (code, signal) => {
      const result = { code: code ?? (signal === null ? -1 : 128), ...out };
      for (const w of waiters) {
        w.reject(
          new Error(`kubectl exited (${result.code}) before ${w.stream} matched ${String(w.pattern)}:
--- stdout ---
${out.stdout}--- stderr ---
${out.stderr}`),
        );
      }
      waiters = [];
      resolve(result);
    });
  });
  const waitFor =
    (stream: Waiter['stream']) =>
    (pattern: RegExp, timeoutMs = 15_000): Promise<string> =>
      new Promise<string>((resolve, reject) => {
        if (pattern.test(out[stream])) {
          resolve(out[stream]);
          return;
        }
        if (child.exitCode !== null || child.signalCode !== null) {
          reject(new Error(`kubectl already exited; ${stream} did not match ${String(pattern)}`));
          return;
        }
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          reject(
            new Error(`${stream} did not match ${String(pattern)} within ${timeoutMs}ms:\n${out[stream]}`),
          );
        }, timeoutMs);
        const waiter: Waiter = {
          stream,
          pattern,
          resolve: (text) => {
            clearTimeout(timer);
            resolve(text);
          },
          reject: (err) => {
            clearTimeout(timer);
            reject(err);
          },
        };
        waiters.push(waiter);
      });
  return {
    waitForStdout: waitFor('stdout'),
    waitForStderr: waitFor('stderr'),
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
