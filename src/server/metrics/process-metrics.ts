// The process_* family kube-apiserver exposes (Prometheus client_golang's process collector), read
// from the process and /proc at each scrape: nothing runs between scrapes. Two servers in one
// process report the same process, as they share it.
import { readdirSync, readFileSync } from 'node:fs';
import type { Registry } from 'prom-client';
import type { PromClient } from './prom-metrics.js';

/** A /proc file's text, or undefined where there is no /proc (not Linux). */
function procText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The soft limit of a /proc/self/limits row; "unlimited" as the largest uint64, as client_golang reads it. */
function softLimit(limits: string, row: string): number | undefined {
  const line = limits.split('\n').find((l) => l.startsWith(row));
  const soft = line?.slice(row.length).trim().split(/\s+/)[0];
  if (soft === undefined) return undefined;
  return soft === 'unlimited' ? 2 ** 64 : Number(soft);
}

/**
 * IpExt's InOctets and OutOctets of /proc/self/net/netstat, as client_golang reads them (they count
 * the process's network namespace).
 */
function networkBytes(netstat: string): { received: number; sent: number } | undefined {
  const rows = netstat.split('\n').filter((l) => l.startsWith('IpExt:'));
  const names = rows[0]?.split(/\s+/) ?? [];
  const values = rows[1]?.split(/\s+/) ?? [];
  const of = (name: string): number => Number(values[names.indexOf(name)]);
  const received = of('InOctets');
  const sent = of('OutOctets');
  return Number.isFinite(received) && Number.isFinite(sent) ? { received, sent } : undefined;
}

/** /proc/self/stat's vsize (the 23rd field), after the command's parenthesised name. */
function virtualBytes(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const v = Number(fields[20]);
  return Number.isFinite(v) ? v : undefined;
}

/** Registers the process_* gauges and counters on `registry`. */
export function registerProcessMetrics(prom: PromClient, registry: Registry): void {
  const registers = [registry];
  const gauge = (name: string, help: string, read: () => number | undefined): void => {
    new prom.Gauge({
      name,
      help,
      registers,
      collect() {
        const v = read();
        if (v !== undefined) this.set(v);
      },
    });
  };
  const startSeconds = Date.now() / 1000 - process.uptime();
  // A counter's value only rises, so each scrape adds what the process spent since the last one.
  let cpuSeconds = 0;
  new prom.Counter({
    name: 'process_cpu_seconds_total',
    help: 'Total user and system CPU time spent in seconds.',
    registers,
    collect() {
      const used = process.cpuUsage();
      const total = (used.user + used.system) / 1e6;
      if (total > cpuSeconds) this.inc(total - cpuSeconds);
      cpuSeconds = Math.max(cpuSeconds, total);
    },
  });
  gauge('process_open_fds', 'Number of open file descriptors.', () => {
    try {
      return readdirSync('/proc/self/fd').length;
    } catch {
      return undefined;
    }
  });
  const limits = (row: string): number | undefined => {
    const text = procText('/proc/self/limits');
    return text === undefined ? undefined : softLimit(text, row);
  };
  gauge('process_max_fds', 'Maximum number of open file descriptors.', () => limits('Max open files'));
  gauge('process_virtual_memory_bytes', 'Virtual memory size in bytes.', () => {
    const stat = procText('/proc/self/stat');
    return stat === undefined ? undefined : virtualBytes(stat);
  });
  gauge('process_virtual_memory_max_bytes', 'Maximum amount of virtual memory available in bytes.', () =>
    limits('Max address space'),
  );
  gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', () => process.memoryUsage.rss());
  gauge(
    'process_start_time_seconds',
    'Start time of the process since unix epoch in seconds.',
    () => startSeconds,
  );
  const network = (side: 'received' | 'sent', name: string, help: string): void => {
    let seen = 0;
    new prom.Counter({
      name,
      help,
      registers,
      collect() {
        const netstat = procText('/proc/self/net/netstat');
        const bytes = netstat === undefined ? undefined : networkBytes(netstat);
        if (bytes === undefined) return;
        const now = bytes[side];
        if (now > seen) this.inc(now - seen);
        seen = Math.max(seen, now);
      },
    });
  };
  network(
    'received',
    'process_network_receive_bytes_total',
    'Number of bytes received by the process over the network.',
  );
  network(
    'sent',
    'process_network_transmit_bytes_total',
    'Number of bytes sent by the process over the network.',
  );
}
