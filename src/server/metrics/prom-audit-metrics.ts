// Auditing's metrics (k8s.io/apiserver/pkg/audit/metrics.go) with kube's names and help. The two
// counters without labels are exported from the start, at 0, as kube registers them.
import type { Counter, Registry } from 'prom-client';
import type { AuditLevel } from '../audit/types.js';
import type { AuditMetrics } from '../audit/metrics.js';
import type { PromClient } from './prom-metrics.js';

export class AuditPromMetrics implements AuditMetrics {
  readonly #events: Counter;
  readonly #errors: Counter<'plugin'>;
  readonly #levels: Counter<'level'>;
  readonly #rejected: Counter;

  constructor(prom: PromClient, registry: Registry) {
    const registers = [registry];
    this.#events = new prom.Counter({
      name: 'apiserver_audit_event_total',
      help: 'Counter of audit events generated and sent to the audit backend.',
      registers,
    });
    this.#errors = new prom.Counter({
      name: 'apiserver_audit_error_total',
      help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
      labelNames: ['plugin'],
      registers,
    });
    this.#levels = new prom.Counter({
      name: 'apiserver_audit_level_total',
      help: 'Counter of policy levels for audit events (1 per request).',
      labelNames: ['level'],
      registers,
    });
    this.#rejected = new prom.Counter({
      name: 'apiserver_audit_requests_rejected_total',
      help: 'Counter of apiserver requests rejected due to an error in audit logging backend.',
      registers,
    });
  }

  observeEvent(): void {
    this.#events.inc();
  }
  observePolicyLevel(level: AuditLevel): void {
    this.#levels.inc({ level });
  }
  pluginError(plugin: string, events: number): void {
    this.#errors.inc({ plugin }, events);
  }
  requestRejected(): void {
    this.#rejected.inc();
  }
}
