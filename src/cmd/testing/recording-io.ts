// A CommandIO for tests of the command: records what it writes, and never signals.
import type { CommandIO } from '../capstan.js';

export function recordingIO(): CommandIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    waitForSignal: () => new Promise<string>(() => undefined),
  };
}
