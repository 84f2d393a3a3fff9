// autoscaling/v2 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { horizontalPodAutoscalerV2Module } from './horizontal-pod-autoscaler.js';

export const autoscalingV2Modules: readonly APIModule[] = [horizontalPodAutoscalerV2Module];
