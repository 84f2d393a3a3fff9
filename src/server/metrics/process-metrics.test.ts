// The process_* family as kube-apiserver exposes it: every member present on Linux with a
// plausible value, and the counters only rising between scrapes.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import * as prom from 'prom-client';
import { registerProcessMetrics } from './process-metrics.js';

function values(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    const [name = '', value = ''] = line.split(' ');
    out.set(name, Number(value));
  }
  return out;
}

it('reports the process family with its types, and counters that never fall', async () => {
  const registry = new prom.Registry();
  registerProcessMetrics(prom, registry);
  const text = await registry.metrics();
  assert.match(text, /^# TYPE process_cpu_seconds_total counter$/m);
  assert.match(text, /^# TYPE process_resident_memory_bytes gauge$/m);
  const first = values(text);
  assert.deepEqual([...first.keys()].sort(), [
    'process_cpu_seconds_total',
    'process_max_fds',
    'process_network_receive_bytes_total',
    'process_network_transmit_bytes_total',
    'process_open_fds',
    'process_resident_memory_bytes',
    'process_start_time_seconds',
    'process_virtual_memory_bytes',
    'process_virtual_memory_max_bytes',
  ]);
  const at = (m: Map<string, number>, name: string): number => m.get(name) ?? NaN;
  assert.ok(at(first, 'process_cpu_seconds_total') > 0);
  assert.ok(
    at(first, 'process_open_fds') > 2 && at(first, 'process_open_fds') <= at(first, 'process_max_fds'),
  );
  assert.ok(at(first, 'process_resident_memory_bytes') > 10e6);
  assert.ok(at(first, 'process_virtual_memory_bytes') > at(first, 'process_resident_memory_bytes'));
  const start = at(first, 'process_start_time_seconds');
  assert.ok(start <= Date.now() / 1000 && start > Date.now() / 1000 - 3600, String(start));
  // Some CPU spent between the scrapes shows in the second.
  const until = Date.now() + 20;
  while (Date.now() < until);
  const second = values(await registry.metrics());
  assert.ok(at(second, 'process_cpu_seconds_total') > at(first, 'process_cpu_seconds_total'));
  assert.ok(
    at(second, 'process_network_receive_bytes_total') >= at(first, 'process_network_receive_bytes_total'),
  );
});
