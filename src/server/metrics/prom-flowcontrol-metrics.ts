// API Priority and Fairness' metrics (k8s.io/apiserver/pkg/util/flowcontrol/metrics): requests
// dispatched, executing and rejected, by flow schema and priority level, with kube's names and help.
import type { Counter, Gauge, Registry } from 'prom-client';
import type { PromClient } from './prom-metrics.js';

type FlowLabel = 'flow_schema' | 'priority_level';

export interface FlowLabels {
  readonly flowSchema: string;
  readonly priorityLevel: string;
}

export class FlowControlPromMetrics {
  readonly #dispatched: Counter<FlowLabel>;
  readonly #executing: Gauge<FlowLabel>;
  readonly #rejected: Counter<FlowLabel | 'reason'>;

  constructor(prom: PromClient, registry: Registry) {
    const registers = [registry];
    const labelNames: FlowLabel[] = ['flow_schema', 'priority_level'];
    this.#dispatched = new prom.Counter({
      name: 'apiserver_flowcontrol_dispatched_requests_total',
      help: 'Number of requests executed by API Priority and Fairness subsystem',
      labelNames,
      registers,
    });
    this.#executing = new prom.Gauge({
      name: 'apiserver_flowcontrol_current_executing_requests',
      help: 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
      labelNames,
      registers,
    });
    this.#rejected = new prom.Counter({
      name: 'apiserver_flowcontrol_rejected_requests_total',
      help: 'Number of requests rejected by API Priority and Fairness subsystem',
      labelNames: [...labelNames, 'reason'],
      registers,
    });
  }

  dispatched(l: FlowLabels): void {
    this.#dispatched.inc({ flow_schema: l.flowSchema, priority_level: l.priorityLevel });
  }

  addExecuting(l: FlowLabels, delta: number): void {
    this.#executing.inc({ flow_schema: l.flowSchema, priority_level: l.priorityLevel }, delta);
  }

  rejected(l: FlowLabels, reason: string): void {
    this.#rejected.inc({ flow_schema: l.flowSchema, priority_level: l.priorityLevel, reason });
  }
}
