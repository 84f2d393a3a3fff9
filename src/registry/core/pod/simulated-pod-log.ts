// pods/log of a pod on a simulated node: what the kubelet's GetKubeletContainerLogs would stream
// for it (kuberuntime ReadLogs over PodLogOptions), from the container's log annotation
// (simulated-log.ts). The run is picked and refused as the kubelet does; then the last tailLines
// lines, those not before since, each after its timestamp when asked, cut at limitBytes; with
// follow, the lines the run prints after, until it stops. Always streamed as text/plain, as kube's
// LogREST answers.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Clock } from '../../../machinery/time/clock.js';
import type { ConnectAnswer, Watcher } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import { epochMs, logInstance } from './log-container-status.js';
import { followLog } from './log-follow.js';
import type { PodLogOptions } from './log-options.js';
import { LogPrinter, simulatedLogLines } from './simulated-log.js';

export interface SimulatedPodLogRequest {
  readonly pod: Pod;
  /** The container the request names, or the pod's only one. */
  readonly container: string;
  readonly options: PodLogOptions;
  /** Where a follow watches the pod; without it the log ends with what is there. */
  readonly pods: Watcher | undefined;
  readonly clock: Clock;
}

/** kuberuntime NewLogOptions: sinceSeconds back from now, or sinceTime when that is later. */
export function logSince(options: PodLogOptions, now: number): number | undefined {
  let since = options.sinceSeconds === undefined ? undefined : now - options.sinceSeconds * 1000;
  if (options.sinceTime !== undefined && (since === undefined || options.sinceTime > since))
    since = options.sinceTime;
  return since;
}

/** The first chunk, then the followed ones when there are. */
async function* concat(first: Uint8Array, rest?: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (first.length > 0) yield first;
  if (rest !== undefined) yield* rest;
}

export async function simulatedPodLog(
  ctx: RequestContext,
  req: SimulatedPodLogRequest,
): Promise<ConnectAnswer> {
  const { pod, container, options } = req;
  const instance = logInstance(pod, container, options.previous);
  // A run without a start time printed when its pod started (or was made).
  const at =
    instance.startedAt ??
    epochMs(pod.status?.startTime) ??
    epochMs(pod.metadata?.creationTimestamp) ??
    req.clock.now();
  const printer = new LogPrinter({
    timestamps: options.timestamps,
    since: logSince(options, req.clock.now()),
    limitBytes: options.limitBytes,
  });
  const lines = simulatedLogLines(pod, container);
  const tail = options.tailLines;
  const first = printer.print(tail === undefined ? lines : lines.slice(Math.max(0, lines.length - tail)), at);
  const pods = req.pods;
  if (!options.follow || !instance.running || printer.full || pods === undefined)
    return { contentType: 'text/plain', stream: concat(first) };
  const rest = await followLog({ ctx, pods, pod, container, instance, at, printer });
  return { contentType: 'text/plain', stream: concat(first, rest) };
}
