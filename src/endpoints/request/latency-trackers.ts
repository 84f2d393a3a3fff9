// The parts of a request's latency that are not the server's own doing (kube's
// request.LatencyTrackers, the trackers its SLI latency subtracts): the admission webhooks' calls
// and the wait in a priority-and-fairness queue. The request filter chain's scope holds them; the
// handlers hand them to the request's context, where the webhook dispatchers add to them.

export interface LatencyTrackers {
  /** The mutating webhooks' calls, summed: they run one after another (ms). */
  mutatingWebhookMs: number;
  /** The longest validating webhook call: they run in parallel (ms). */
  validatingWebhookMs: number;
  /** The longest wait for a seat in a priority level's queues (ms). */
  apfQueueWaitMs: number;
}

/** Adds one webhook call's duration as kube's trackers do (a sum for mutating, a max otherwise). */
export function trackWebhookLatency(t: LatencyTrackers, call: { mutating: boolean; ms: number }): void {
  if (call.mutating) t.mutatingWebhookMs += call.ms;
  else if (call.ms > t.validatingWebhookMs) t.validatingWebhookMs = call.ms;
}

/** What the SLI latency leaves out of a request's latency (ms). */
export const excludedFromSLI = (t: LatencyTrackers): number =>
  t.mutatingWebhookMs + t.validatingWebhookMs + t.apfQueueWaitMs;
