// Admission's metrics as /metrics prints them: kube's names and types, a series only once observed,
// histograms with kube's buckets, the step summary with its quantiles.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type * as PromClient from 'prom-client';
import { AdmissionMetrics } from '../../admission/metrics/admission-metrics.js';
import { registerAdmissionMetrics } from './prom-admission-metrics.js';

const prom = createRequire(import.meta.url)('prom-client') as typeof PromClient;

describe('admission metrics on a registry', () => {
  it('prints nothing but HELP and TYPE before admission is attached', async () => {
    const registry = new prom.Registry();
    registerAdmissionMetrics(registry, () => undefined);
    const text = await registry.metrics();
    assert.match(text, /^# TYPE apiserver_admission_step_admission_duration_seconds histogram$/m);
    assert.match(text, /^# TYPE apiserver_admission_step_admission_duration_seconds_summary summary$/m);
    assert.match(text, /^# TYPE apiserver_admission_webhook_rejection_count counter$/m);
    assert.doesNotMatch(text, /^apiserver_/m);
  });

  it('prints the observed series', async () => {
    const registry = new prom.Registry();
    const m = new AdmissionMetrics();
    registerAdmissionMetrics(registry, () => m);
    m.stepOutcomes('admit').CREATE.allowed.observe(0.002);
    m.controllerOutcomes('LimitRanger', 'admit').CREATE.allowed.observe(0.002);
    m.observeWebhook('w.example.com', {
      type: 'validating',
      operation: 'UPDATE',
      seconds: 0.3,
      rejected: true,
      code: 403,
    });
    m.observeWebhookRejection('w.example.com', {
      type: 'validating',
      operation: 'UPDATE',
      errorType: 'no_error',
      code: 403,
    });
    m.observeWebhookFailOpen('o.example.com', 'admit');
    const lines = (await registry.metrics()).split('\n').filter((l) => !l.startsWith('#') && l !== '');
    const step = 'type="admit",operation="CREATE",rejected="false"';
    const hook = 'name="w.example.com",type="validating",operation="UPDATE",rejected="true"';
    assert.deepEqual(lines, [
      ...['0.005', '0.025', '0.1', '0.5', '1', '2.5', '+Inf'].map(
        (le) => `apiserver_admission_step_admission_duration_seconds_bucket{le="${le}",${step}} 1`,
      ),
      `apiserver_admission_step_admission_duration_seconds_sum{${step}} 0.002`,
      `apiserver_admission_step_admission_duration_seconds_count{${step}} 1`,
      ...['0.5', '0.9', '0.99'].map(
        (q) => `apiserver_admission_step_admission_duration_seconds_summary{quantile="${q}",${step}} 0.002`,
      ),
      `apiserver_admission_step_admission_duration_seconds_summary_sum{${step}} 0.002`,
      `apiserver_admission_step_admission_duration_seconds_summary_count{${step}} 1`,
      ...['0.005', '0.025', '0.1', '0.5', '1', '2.5', '+Inf'].map(
        (le) =>
          `apiserver_admission_controller_admission_duration_seconds_bucket{le="${le}",name="LimitRanger",${step}} 1`,
      ),
      `apiserver_admission_controller_admission_duration_seconds_sum{name="LimitRanger",${step}} 0.002`,
      `apiserver_admission_controller_admission_duration_seconds_count{name="LimitRanger",${step}} 1`,
      ...['0.005', '0.025', '0.1', '0.5', '1', '2.5', '10', '25', '+Inf'].map(
        (le) =>
          `apiserver_admission_webhook_admission_duration_seconds_bucket{le="${le}",${hook}} ${['0.005', '0.025', '0.1'].includes(le) ? 0 : 1}`,
      ),
      `apiserver_admission_webhook_admission_duration_seconds_sum{${hook}} 0.3`,
      `apiserver_admission_webhook_admission_duration_seconds_count{${hook}} 1`,
      'apiserver_admission_webhook_rejection_count{name="w.example.com",type="validating",operation="UPDATE",error_type="no_error",rejection_code="403"} 1',
      'apiserver_admission_webhook_fail_open_count{name="o.example.com",type="admit"} 1',
      'apiserver_admission_webhook_request_total{name="w.example.com",type="validating",operation="UPDATE",code="403",rejected="true"} 1',
    ]);
  });
});
