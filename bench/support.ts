// Shared helpers for the benchmarks: timing loops, a pod-shaped object, and table printing.
import { performance } from 'node:perf_hooks';
import type { KubeObject, ObjectMeta } from '../src/api/meta.js';

export interface Rate {
  readonly ops: number;
  readonly seconds: number;
  readonly perSecond: number;
}

/** Runs `op` sequentially `count` times and returns the rate. */
export async function sequential(count: number, op: (i: number) => unknown): Promise<Rate> {
  const start = performance.now();
  for (let i = 0; i < count; i++) await op(i);
  return rate(count, start);
}

/** Runs `count` operations with `inFlight` of them outstanding at any time. */
export async function concurrent(
  count: number,
  inFlight: number,
  op: (i: number) => Promise<unknown>,
): Promise<Rate> {
  const start = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await op(next++);
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return rate(count, start);
}

function rate(ops: number, start: number): Rate {
  const seconds = (performance.now() - start) / 1000;
  return { ops, seconds, perSecond: ops / seconds };
}

/** A ~2 KB pod-like object, as FACTS.md measures with. */
export function podLike(
  name: string,
  namespace = 'bench',
): KubeObject & { metadata: ObjectMeta & { name: string } } {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels: { app: 'bench', tier: 'backend', 'pod-template-hash': '5d8f7c9b6d' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-25T10:00:00Z' },
    },
    spec: {
      nodeName: `node-${name.length % 10}`,
      restartPolicy: 'Always',
      containers: Array.from({ length: 3 }, (_, i) => ({
        name: `container-${i}`,
        image: `registry.example.com/team/service-${i}:v1.2.3`,
        args: ['--port=8080', '--log-level=info', '--metrics-addr=:9090'],
        env: Array.from({ length: 6 }, (_, j) => ({
          name: `ENV_${j}`,
          value: `value-${j}-${'x'.repeat(12)}`,
        })),
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
        ports: [{ containerPort: 8080 + i, protocol: 'TCP' }],
      })),
    },
  };
}

export interface Row {
  readonly what: string;
  readonly capstan: number;
  readonly baseline: number;
  readonly unit?: string;
}

/** Prints rows as a Markdown table with the ratio capstan / baseline. */
export function printTable(title: string, baselineName: string, rows: readonly Row[]): void {
  console.log(`\n### ${title}\n`);
  console.log(`| operation | Capstan | ${baselineName} | ratio |`);
  console.log('|---|---:|---:|---:|');
  for (const r of rows) {
    const unit = r.unit ?? '/s';
    console.log(
      `| ${r.what} | ${fmt(r.capstan)}${unit} | ${fmt(r.baseline)}${unit} | ${(r.capstan / r.baseline).toFixed(2)} |`,
    );
  }
}

export function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1);
}

/** The p-th percentile (nearest rank) of ascending values: every sample counted, none averaged. */
/** The median: the middle value, or the mean of the two middle ones of an even count (NaN of none). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/** Prints a Markdown table: a header row, then rows of cells already formatted; numbers align right. */
export function printGrid(
  title: string,
  header: readonly string[],
  rows: readonly (readonly string[])[],
): void {
  console.log(`\n### ${title}\n`);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

/** Milliseconds with two significant decimals below 10, one above. */
export function fmtMs(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}
