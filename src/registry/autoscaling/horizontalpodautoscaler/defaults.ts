// autoscaling/v2 HorizontalPodAutoscaler defaults (pkg/apis/autoscaling/v2/defaults.go): one
// replica at least, 80% average CPU when no metric is named, and the controller's scaling rules
// filled into whatever part of a given behavior is left out.
import type {
  HorizontalPodAutoscaler,
  HPAScalingPolicy,
  HPAScalingRules,
} from '../../../api/autoscaling/v2/types.js';
import { cpuUtilizationMetric, defaultCPUUtilization } from './conversion.js';

const scaleUpDefaults = (): Required<Omit<HPAScalingRules, 'tolerance'>> => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
});

// The scale-down window comes from the controller's --horizontal-pod-autoscaler-downscale-stabilization
// flag, so it is left unset here.
const scaleDownDefaults = (): Omit<HPAScalingRules, 'tolerance'> & { policies: HPAScalingPolicy[] } => ({
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
});

function fill(rules: HPAScalingRules | undefined, defaults: HPAScalingRules): HPAScalingRules {
  if (rules === undefined) return defaults;
  const out = { ...rules };
  if (out.stabilizationWindowSeconds === undefined && defaults.stabilizationWindowSeconds !== undefined)
    out.stabilizationWindowSeconds = defaults.stabilizationWindowSeconds;
  out.selectPolicy ??= defaults.selectPolicy ?? 'Max';
  out.policies ??= defaults.policies ?? [];
  return out;
}

export function setHorizontalPodAutoscalerDefaults(hpa: HorizontalPodAutoscaler): void {
  const spec = (hpa.spec ??= { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 });
  spec.minReplicas ??= 1;
  if ((spec.metrics ?? []).length === 0) spec.metrics = [cpuUtilizationMetric(defaultCPUUtilization)];
  if (spec.behavior !== undefined) {
    spec.behavior = {
      ...spec.behavior,
      scaleUp: fill(spec.behavior.scaleUp, scaleUpDefaults()),
      scaleDown: fill(spec.behavior.scaleDown, scaleDownDefaults()),
    };
  }
}
