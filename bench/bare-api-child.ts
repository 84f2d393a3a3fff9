// Runs bench/api's bare server in a process of its own, so that its CPU time and its garbage
// collection are its own and not mixed with Capstan's (whose heap is far larger). The parent reads
// this process's CPU time over IPC around each timed run.
import { startBareServer } from './bare-api-server.js';

export type FromBareChild = { type: 'listening'; url: string } | { type: 'cpu'; us: number };
export type ToBareChild = { type: 'cpu' };

const server = await startBareServer(process.argv[2] ?? '');
const send = (msg: FromBareChild): void => {
  process.send?.(msg);
};
process.on('message', (_: ToBareChild) => {
  const u = process.cpuUsage();
  send({ type: 'cpu', us: u.user + u.system });
});
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0));
});
send({ type: 'listening', url: server.url });
