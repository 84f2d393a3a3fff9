// autoscaling/v1 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { horizontalPodAutoscalerV1Module } from './horizontal-pod-autoscaler.js';
import { autoscalingV1ScaleModule } from './scale.js';

export const autoscalingV1Modules: readonly APIModule[] = [
  autoscalingV1ScaleModule,
  horizontalPodAutoscalerV1Module,
];
