import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultServerRunOptions } from '../server/options/server-run-options.js';
import { parseFlags } from './flag-set.js';
import { capstanFlags } from './flags.js';

describe('etcd metric and check flags', () => {
  it("default to kube's 30s poll interval and 2s check timeouts", () => {
    const o = defaultServerRunOptions();
    parseFlags([], capstanFlags, o);
    assert.equal(o.storage.countMetricPollPeriodMs, 60_000);
    assert.equal(o.storage.dbMetricPollIntervalMs, 30_000);
    assert.equal(o.storage.healthcheckTimeoutMs, 2_000);
    assert.equal(o.storage.readycheckTimeoutMs, 2_000);
  });

  it('take durations', () => {
    const o = defaultServerRunOptions();
    parseFlags(
      [
        '--etcd-count-metric-poll-period=10s',
        '--etcd-db-metric-poll-interval=0',
        '--etcd-healthcheck-timeout=5s',
        '--etcd-readycheck-timeout',
        '1m',
      ],
      capstanFlags,
      o,
    );
    assert.equal(o.storage.countMetricPollPeriodMs, 10_000);
    assert.equal(o.storage.dbMetricPollIntervalMs, 0);
    assert.equal(o.storage.healthcheckTimeoutMs, 5_000);
    assert.equal(o.storage.readycheckTimeoutMs, 60_000);
  });
});
