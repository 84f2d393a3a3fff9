// One side of bench/ab: Capstan bundled from one checkout's sources (argv[2], a directory), in a
// process of its own. It reports its URL and token, then answers each ask with its CPU time: the
// whole process's and its main thread's (from /proc), so that a change is told apart from the
// SQLite writer's and V8's helper threads' share.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { bundledStartCapstan as BundledStart } from './bundle.js';

export type FromAbChild =
  { type: 'listening'; url: string; token: string } | { type: 'cpu'; us: number; mainUs: number };
export type ToAbChild = { type: 'cpu' };

const checkout = process.argv[2] ?? '.';
const bundle = pathToFileURL(`${checkout}/bench/bundle.ts`).href;
const { bundledStartCapstan } = (await import(bundle)) as { bundledStartCapstan: typeof BundledStart };
const start = await bundledStartCapstan();
const server = await start({ storage: 'sqlite', scheme: 'http', requestLog: false });

/** This process's main thread's CPU time (µs), in clock ticks of 10 ms (USER_HZ). */
function mainThreadUs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const send = (msg: FromAbChild): void => {
  process.send?.(msg);
};
process.on('message', (_: ToAbChild) => {
  const u = process.cpuUsage();
  send({ type: 'cpu', us: u.user + u.system, mainUs: mainThreadUs() });
});
process.on('disconnect', () => {
  void server.stop().then(() => process.exit(0));
});
send({ type: 'listening', url: server.url, token: server.kubeConfig.users[0]?.user.token ?? '' });
