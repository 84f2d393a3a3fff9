// `follow` on a simulated container's log: after what was there, the lines added to its log
// annotation as the pod changes, read from a watch of that one pod that starts at the revision
// the request read, so nothing is missed. As the kubelet's ReadLogs, it ends when the run it reads
// is no longer running (terminated, or restarted as another run), and when limitBytes is written;
// it ends too when the pod is deleted and when the client goes away.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Watch } from '../../../storage/interfaces.js';
import type { Watcher } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import { containerStatusOf, type LogInstance } from './log-container-status.js';
import { simulatedLogLines, type LogPrinter } from './simulated-log.js';

export interface FollowInit {
  readonly ctx: RequestContext;
  readonly pods: Watcher;
  /** The pod as the request read it. */
  readonly pod: Pod;
  readonly container: string;
  readonly instance: LogInstance;
  /** When the run printed its lines (epoch ms). */
  readonly at: number;
  readonly printer: LogPrinter;
}

/** Whether the run is still the container's current one, and running. */
function stillRunning(pod: Pod, container: string, instance: LogInstance): boolean {
  const status = containerStatusOf(pod, container);
  if (status?.state?.running === undefined) return false;
  return instance.containerID === '' || (status.containerID ?? '') === instance.containerID;
}

/**
 * Starts watching the pod, so that a watch that cannot start is the request's error, and returns
 * the chunks written after the first: each batch of lines the annotation gained.
 */
export async function followLog(init: FollowInit): Promise<AsyncIterable<Uint8Array>> {
  const { ctx } = init;
  const watch = await init.pods.watch(ctx, {
    fieldSelector: `metadata.name=${init.pod.metadata?.name ?? ''}`,
    resourceVersion: init.pod.metadata?.resourceVersion ?? '',
  });
  const stop = (): void => {
    watch.stop();
  };
  if (ctx.signal.aborted) stop();
  else ctx.signal.addEventListener('abort', stop);
  return followed(init, watch, () => {
    ctx.signal.removeEventListener('abort', stop);
    stop();
  });
}

async function* followed(init: FollowInit, watch: Watch, close: () => void): AsyncGenerator<Uint8Array> {
  const { container, instance, printer } = init;
  let seen = simulatedLogLines(init.pod, container).length;
  try {
    for await (const event of watch) {
      if (event.type === 'ERROR') return;
      if (event.type === 'BOOKMARK') continue;
      const pod = event.object as Pod;
      const lines = simulatedLogLines(pod, container);
      if (lines.length > seen) {
        const bytes = printer.print(lines.slice(seen), init.at);
        seen = lines.length;
        if (bytes.length > 0) yield bytes;
        if (printer.full) return;
      }
      if (event.type === 'DELETED' || !stillRunning(pod, container, instance)) return;
    }
  } finally {
    close();
  }
}
