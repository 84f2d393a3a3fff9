// Several audit backends as one (kube's audit.Union): each gets every event.
import type { AuditEvent, AuditSink } from './types.js';

export function unionSink(sinks: readonly AuditSink[]): AuditSink {
  if (sinks.length === 1 && sinks[0] !== undefined) return sinks[0];
  return {
    processEvents(...events: AuditEvent[]): void {
      for (const s of sinks) s.processEvents(...events);
    },
    async close(): Promise<void> {
      await Promise.all(sinks.map(async (s) => s.close?.()));
    },
  };
}
