// What componentstatuses reports on: a named component and its health check (kube's Server with
// DoServerCheck, pkg/registry/core/componentstatus/validator.go).
import type { ComponentStatus } from '../../../api/core/v1/component-status.js';

export interface ComponentProbe {
  /** The ComponentStatus name (`etcd-0`). */
  readonly name: string;
  /** Resolves with the message of a healthy component; rejects with the reason it is not. */
  check(signal: AbortSignal): Promise<string>;
}

/** kube's probeTimeOut. */
export const probeTimeoutMs = 20_000;

/** getComponentStatus: one Healthy condition, True with the probe's message or False with its error. */
export async function componentStatus(probe: ComponentProbe, signal: AbortSignal): Promise<ComponentStatus> {
  const status = (healthy: boolean, message: string, error: string): ComponentStatus => ({
    apiVersion: 'v1',
    kind: 'ComponentStatus',
    metadata: { name: probe.name },
    conditions: [
      {
        type: 'Healthy',
        status: healthy ? 'True' : 'False',
        ...(message !== '' ? { message } : {}),
        ...(error !== '' ? { error } : {}),
      },
    ],
  });
  const timeout = AbortSignal.timeout(probeTimeoutMs);
  try {
    return status(true, await probe.check(AbortSignal.any([signal, timeout])), '');
  } catch (err) {
    return status(false, '', err instanceof Error ? err.message : String(err));
  }
}
