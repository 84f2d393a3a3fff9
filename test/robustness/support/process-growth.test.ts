import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { growthProblems, sampleFor, sampleProcess, type ProcessSample } from './process-growth.js';

/** `n` samples every 5 s whose fields follow the given functions of the sample's index. */
function series(
  f: {
    rssMB?: (i: number) => number;
    fds?: (i: number) => number;
    threads?: (i: number) => number;
  },
  n = 20,
): ProcessSample[] {
  return Array.from({ length: n }, (_, i) => ({
    atS: i * 5,
    rssMB: f.rssMB?.(i) ?? 100,
    fds: f.fds?.(i) ?? 30,
    threads: f.threads?.(i) ?? 11,
    cpuS: i,
    ops: i * 100,
  }));
}

// The RSS of a paced soak's server every 5 s (MB): a climb, a major GC at 35 s, a climb again.
const sawTooth = [
  98, 101, 100, 104, 111, 122, 125, 90, 97, 101, 107, 108, 110, 113, 120, 127, 127, 129, 129, 129, 130,
];

describe('growthProblems', () => {
  it('passes a flat series, and a saw tooth of garbage collection', () => {
    assert.deepEqual(growthProblems(series({})), []);
    assert.deepEqual(
      growthProblems(series({ rssMB: (i) => sawTooth[i] ?? 0, fds: (i) => 32 + (i % 3) }, sawTooth.length)),
      [],
    );
  });

  it('fails RSS that keeps climbing, also under the saw tooth', () => {
    assert.deepEqual(growthProblems(series({ rssMB: (i) => 100 + i * 20 })), [
      'RSS peaked at 480 MB, past the 380 MB peak before it',
    ]);
    const leaking = series({ rssMB: (i) => (sawTooth[i] ?? 0) + i * 8 }, sawTooth.length);
    assert.deepEqual(growthProblems(leaking), ['RSS peaked at 290 MB, past the 247 MB peak before it']);
  });

  it('passes RSS that grows by a ratio but only a few MB, or by MB but a small ratio', () => {
    assert.deepEqual(growthProblems(series({ rssMB: (i) => 20 + i * 2 })), []);
    assert.deepEqual(growthProblems(series({ rssMB: (i) => 1000 + i * 5 })), []);
  });

  it('fails leaking descriptors and threads', () => {
    const leaking = series({ fds: (i) => 30 + i * 5, threads: (i) => 11 + 2 * i });
    assert.deepEqual(growthProblems(leaking), [
      'open descriptors grew from 80 to 115',
      'threads grew from 31 to 45',
    ]);
  });

  it('refuses to judge fewer than four samples', () => {
    assert.match(growthProblems(series({}).slice(0, 3))[0] ?? '', /too few samples/);
  });
});

describe('sampleProcess', () => {
  it('reads this process from /proc', () => {
    const s = sampleProcess(process.pid, 1, 2);
    assert.ok(s.rssMB > 10 && s.fds > 2 && s.threads >= 1 && s.cpuS > 0, JSON.stringify(s));
    assert.equal(s.atS, 1);
    assert.equal(s.ops, 2);
  });

  it('sampleFor stops when aborted and keeps what it sampled', async () => {
    const stop = new AbortController();
    let ops = 0;
    const sampled = sampleFor({
      pid: process.pid,
      durationMs: 60_000,
      everyMs: 10,
      ops: () => ++ops,
      signal: stop.signal,
    });
    setTimeout(() => {
      stop.abort();
    }, 50);
    const samples = await sampled;
    assert.ok(samples.length >= 2 && samples.length < 100, `${samples.length} samples`);
    assert.deepEqual(
      samples.map((s) => s.ops),
      samples.map((_, i) => i + 1),
    );
  });
});
