// The repair's events as client-go's events.k8s.io recorder (tools/events) writes them, stored as
// core/v1 Events: named `<object>.<hex unix nanoseconds>` in the object's namespace ("default" for a
// cluster-scoped IPAddress), with eventTime, action and the reporting controller and instance set.
// Recording never fails the repair: an event that cannot be written is dropped.
import { hostname } from 'node:os';
import type { Event } from '../../../api/core/v1/event.js';
import type { Creater } from '../../rest/capabilities.js';
import { internalContext } from '../../rest/context.js';
import { repairControllerName, type RepairEvent } from './repair-ip.js';

/** metav1.MicroTime as JSON: RFC 3339 with six fractional digits, in UTC. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function repairEventRecorder(opts: {
  readonly events: Creater;
  readonly now: () => number;
  readonly instance?: string;
}): (e: RepairEvent) => void {
  const instance = opts.instance ?? `${repairControllerName}-${hostname()}`;
  return (e) => {
    const nowMs = opts.now();
    const namespace = (e.regarding.namespace ?? '') === '' ? 'default' : (e.regarding.namespace ?? '');
    const nanos = BigInt(nowMs) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
    const event: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${e.regarding.name}.${nanos.toString(16)}`, namespace },
      involvedObject: { ...e.regarding },
      reason: e.reason,
      message: e.note,
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      type: e.type,
      eventTime: microTime(nowMs),
      action: e.action,
      reportingComponent: repairControllerName,
      reportingInstance: instance,
    };
    opts.events.create(internalContext({ namespace }), event, { options: {} }).catch(() => undefined);
  };
}
