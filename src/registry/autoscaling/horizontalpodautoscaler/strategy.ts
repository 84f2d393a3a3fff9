// HorizontalPodAutoscaler policy (pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go): the
// main resource keeps the status, /status keeps the spec. Defaults are applied here, on the stored
// autoscaling/v2 form, whichever version the object came through.
import type { HorizontalPodAutoscaler } from '../../../api/autoscaling/v2/types.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import {
  behaviorSpecsAnnotation,
  conditionsAnnotation,
  metricSpecsAnnotation,
  metricStatusesAnnotation,
} from './conversion.js';
import { setHorizontalPodAutoscalerDefaults } from './defaults.js';
import {
  validateHorizontalPodAutoscaler,
  validateHorizontalPodAutoscalerStatusUpdate,
  validateHorizontalPodAutoscalerUpdate,
} from './validation.js';

const roundTrip = [
  metricSpecsAnnotation,
  metricStatusesAnnotation,
  behaviorSpecsAnnotation,
  conditionsAnnotation,
];

/** autoscaling/v1's annotations are never stored: their content lives in the v2 fields. */
function dropRoundTripAnnotations(hpa: HorizontalPodAutoscaler): void {
  const meta = hpa.metadata;
  if (meta?.annotations === undefined) return;
  const kept = Object.entries(meta.annotations).filter(([key]) => !roundTrip.includes(key));
  if (kept.length === Object.keys(meta.annotations).length) return;
  if (kept.length === 0) delete meta.annotations;
  else meta.annotations = Object.fromEntries(kept);
}

/** The HPAConfigurableTolerance gate is off (alpha in 1.33): tolerance is dropped unless already used. */
function dropDisabledFields(hpa: HorizontalPodAutoscaler, old: HorizontalPodAutoscaler | undefined): void {
  const behavior = hpa.spec?.behavior;
  if (behavior === undefined) return;
  const used =
    old?.spec?.behavior?.scaleUp?.tolerance !== undefined ||
    old?.spec?.behavior?.scaleDown?.tolerance !== undefined;
  if (used) return;
  if (behavior.scaleUp !== undefined) delete behavior.scaleUp.tolerance;
  if (behavior.scaleDown !== undefined) delete behavior.scaleDown.tolerance;
}

export const horizontalPodAutoscalerStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setHorizontalPodAutoscalerDefaults,
  prepareForCreate: (_ctx, hpa) => {
    setHorizontalPodAutoscalerDefaults(hpa);
    dropRoundTripAnnotations(hpa);
    dropDisabledFields(hpa, undefined);
    hpa.status = { desiredReplicas: 0 };
  },
  validate: (_ctx, hpa) => validateHorizontalPodAutoscaler(hpa),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, hpa, old) => {
    setHorizontalPodAutoscalerDefaults(hpa);
    dropRoundTripAnnotations(hpa);
    dropDisabledFields(hpa, old);
    if (old.status !== undefined) hpa.status = old.status;
    else delete hpa.status;
  },
  validateUpdate: (_ctx, hpa, old) => validateHorizontalPodAutoscalerUpdate(hpa, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<HorizontalPodAutoscaler> & UpdateStrategy<HorizontalPodAutoscaler>;

/** horizontalpodautoscalers/status: takes the status, keeps the spec. */
export const horizontalPodAutoscalerStatusStrategy = {
  ...horizontalPodAutoscalerStrategy,
  prepareForUpdate: (_ctx, hpa, old) => {
    dropRoundTripAnnotations(hpa);
    if (old.spec !== undefined) hpa.spec = old.spec;
    else delete hpa.spec;
  },
  validateUpdate: (_ctx, hpa) => validateHorizontalPodAutoscalerStatusUpdate(hpa),
} satisfies UpdateStrategy<HorizontalPodAutoscaler>;

export const horizontalPodAutoscalerDeleteStrategy = {} satisfies DeleteStrategy<HorizontalPodAutoscaler>;
