// The chain's step and plugin metrics (kube's WithStepMetrics and WithControllerMetrics): each
// plugin that takes part timed under its name, the whole call as one step, a refusal counted as
// rejected for the plugin that refused and its step, plugins that wait timed until they settle.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newForbidden } from '../machinery/errors/index.js';
import { testContext } from '../registry/generic/testing/widgets.js';
import { AdmissionChain, type NamedHandler } from './chain.js';
import {
  handlesOnly,
  type AdmissionResult,
  type MutationInterface,
  type ValidationInterface,
} from './interfaces.js';
import { AdmissionMetrics } from './metrics/admission-metrics.js';
import type { LatencyHistogram } from './metrics/latency-histogram.js';
import { attributesOf } from './testing/attributes.js';

function plugin(name: string, opts: { waitMs?: number; refuses?: boolean } = {}): NamedHandler {
  const step = (): AdmissionResult => {
    const end = (): void => {
      if (opts.refuses === true) throw newForbidden({ group: '', resource: 'pods' }, 'x', name);
    };
    if (opts.waitMs === undefined) {
      end();
      return undefined;
    }
    return new Promise((resolve) => setTimeout(resolve, opts.waitMs)).then(end);
  };
  const both: MutationInterface & ValidationInterface = {
    handles: handlesOnly('CREATE', 'UPDATE'),
    admit: step,
    validate: step,
  };
  return { name, plugin: both };
}

/** The observed series of a family, by their labels joined. */
function observed<T>(
  series: Iterable<{ labels: Readonly<Record<string, string>>; value: T }>,
  histogramOf: (value: T) => LatencyHistogram = (value) => value as LatencyHistogram,
) {
  const out: Record<string, { count: number; sum: number }> = {};
  for (const { labels, value } of series) {
    const h = histogramOf(value);
    if (h.count > 0) out[Object.values(labels).join(' ')] = { count: h.count, sum: h.sum };
  }
  return out;
}
const stepsOf = (m: AdmissionMetrics) => observed(m.step.series(), (s) => s.histogram);

describe('AdmissionChain metrics', () => {
  const ctx = testContext();

  it('times each plugin and the step, without a promise when none waits', () => {
    const m = new AdmissionMetrics();
    const chain = new AdmissionChain([plugin('a'), plugin('b')], m);
    assert.equal(chain.admit(ctx, attributesOf()), undefined);
    assert.equal(chain.validate(ctx, attributesOf({ operation: 'UPDATE' })), undefined);
    // DELETE is handled by neither: no step, no plugin.
    assert.equal(chain.forResource({ group: '', resource: 'pods' }).handles('DELETE'), false);
    assert.deepEqual(Object.keys(observed(m.controller.series())), [
      'a admit CREATE false',
      'b admit CREATE false',
      'a validate UPDATE false',
      'b validate UPDATE false',
    ]);
    assert.deepEqual(Object.keys(stepsOf(m)), ['admit CREATE false', 'validate UPDATE false']);
  });

  it('counts the refusing plugin and its step as rejected, and no plugin after it', () => {
    const m = new AdmissionMetrics();
    const chain = new AdmissionChain([plugin('a'), plugin('no', { refuses: true }), plugin('c')], m);
    assert.throws(() => chain.admit(ctx, attributesOf()), /no/);
    assert.deepEqual(Object.keys(observed(m.controller.series())), [
      'a admit CREATE false',
      'no admit CREATE true',
    ]);
    assert.deepEqual(Object.keys(stepsOf(m)), ['admit CREATE true']);
  });

  it('times a plugin that waits until it settles, and its step to the last plugin’s end', async () => {
    const m = new AdmissionMetrics();
    const chain = new AdmissionChain([plugin('a'), plugin('slow', { waitMs: 30 }), plugin('c')], m);
    const run = chain.admit(ctx, attributesOf());
    assert.ok(run instanceof Promise);
    await run;
    const plugins = observed(m.controller.series());
    assert.ok((plugins['slow admit CREATE false']?.sum ?? 0) >= 0.025, JSON.stringify(plugins));
    assert.ok((plugins['c admit CREATE false']?.sum ?? 1) < 0.025, JSON.stringify(plugins));
    const step = stepsOf(m)['admit CREATE false'];
    const total = Object.values(plugins).reduce((s, p) => s + p.sum, 0);
    assert.ok(step !== undefined && Math.abs(step.sum - total) < 1e-9, JSON.stringify({ step, total }));
  });

  it('counts a plugin whose promise rejects, and its step, as rejected', async () => {
    const m = new AdmissionMetrics();
    const chain = new AdmissionChain([plugin('late-no', { waitMs: 1, refuses: true }), plugin('c')], m);
    await assert.rejects(async () => chain.validate(ctx, attributesOf()), /late-no/);
    assert.deepEqual(Object.keys(observed(m.controller.series())), ['late-no validate CREATE true']);
    assert.deepEqual(Object.keys(stepsOf(m)), ['validate CREATE true']);
  });

  it('shares the series with the chains made from it', () => {
    const m = new AdmissionMetrics();
    const chain = new AdmissionChain([plugin('a')], m);
    const sub = chain.forResource({ group: '', resource: 'pods' }).mutationChain();
    assert.equal(sub.admit(ctx, attributesOf()), undefined);
    assert.equal(chain.admit(ctx, attributesOf()), undefined);
    assert.equal(observed(m.controller.series())['a admit CREATE false']?.count, 2);
  });
});
