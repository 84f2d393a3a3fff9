// What auditing reports (k8s.io/apiserver/pkg/audit/metrics.go): events sent to the backends,
// the policy level of each request, events a backend failed to record (by plugin), and requests
// refused because their RequestReceived event could not be stored.
import type { AuditEvent, AuditLevel, AuditSink } from './types.js';

export interface AuditMetrics {
  /** apiserver_audit_event_total: one event handed to the backends (ObserveEvent). */
  observeEvent(): void;
  /** apiserver_audit_level_total{level}: the policy's level for one request (ObservePolicyLevel). */
  observePolicyLevel(level: AuditLevel): void;
  /** apiserver_audit_error_total{plugin}: events a plugin could not record (HandlePluginError). */
  pluginError(plugin: string, events: number): void;
  /** apiserver_audit_requests_rejected_total (ApiserverAuditDroppedCounter). */
  requestRejected(): void;
}

/**
 * Audit metrics for a server that does not exist yet: the backends are built with the options,
 * before the server whose registry counts. Until attached, observations are dropped (no request is
 * served before).
 */
export class ForwardingAuditMetrics implements AuditMetrics {
  #target: AuditMetrics | undefined;

  attach(target: AuditMetrics): void {
    this.#target = target;
  }
  observeEvent(): void {
    this.#target?.observeEvent();
  }
  observePolicyLevel(level: AuditLevel): void {
    this.#target?.observePolicyLevel(level);
  }
  pluginError(plugin: string, events: number): void {
    this.#target?.pluginError(plugin, events);
  }
  requestRejected(): void {
    this.#target?.requestRejected();
  }
}

/** The sink the filters write to: each event handed on is counted, as kube's processAuditEvent does. */
export function countingSink(sink: AuditSink, metrics: AuditMetrics): AuditSink {
  return {
    processEvents(...events: AuditEvent[]): boolean | Promise<boolean> {
      for (let i = 0; i < events.length; i++) metrics.observeEvent();
      return sink.processEvents(...events);
    },
    close: () => sink.close?.(),
  };
}
