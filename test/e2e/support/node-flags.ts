// What bin/node-flags prints, and the node flags a running server was started with: the e2e tests
// that start bin/capstan (from the checkout or an installed package) check the server runs under
// the V8 flags the script gives for this machine.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bin', 'node-flags');

/** What bin/node-flags prints for `cores` (this machine's when omitted), a flag a line. */
export function nodeFlags(cores?: string): string[] {
  const out = execFileSync(script, cores === undefined ? [] : [cores], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out.split('\n').filter((f) => f !== '');
}

/**
 * The node flags of the process in process group `group` that runs the bundled launcher: its
 * arguments between the node binary and `launch.cjs`.
 */
export function launcherNodeFlags(group: number): string[] {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid pgrp …: the group is the third field after the command's name.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== group) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const at = args.findIndex((a) => a.endsWith('launch.cjs'));
      if (at !== -1) return args.slice(1, at);
    } catch {
      // the process ended between the listing and the read
    }
  }
  throw new Error(`no process of group ${group} runs launch.cjs`);
}
