// Several audit backends as one (kube's audit.Union): each gets every event; the events are stored
// when every backend stored them.
import type { AuditEvent, AuditSink } from './types.js';

export function unionSink(sinks: readonly AuditSink[]): AuditSink {
  if (sinks.length === 1 && sinks[0] !== undefined) return sinks[0];
  return {
    processEvents(...events: AuditEvent[]): boolean | Promise<boolean> {
      const results = sinks.map((s) => s.processEvents(...events));
      if (results.every((r) => typeof r === 'boolean')) return results.every((r) => r);
      return Promise.all(results.map(async (r) => r)).then((all) => all.every((r) => r));
    },
    async close(): Promise<void> {
      await Promise.all(sinks.map(async (s) => s.close?.()));
    },
  };
}
