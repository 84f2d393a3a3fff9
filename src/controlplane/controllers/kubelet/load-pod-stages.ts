// --simulate-stages: the pod stages a user passed, as a file path (the flag) or as data
// (startCapstan), read and checked once at startup; nothing passed means the default stages.
import { readFileSync } from 'node:fs';
import { parsePodStages, validatePodStages, type PodStages } from './pod-stages.js';

export function loadPodStages(given: unknown): PodStages | undefined {
  if (given === undefined) return undefined;
  if (typeof given === 'string') return parsePodStages(readFileSync(given, 'utf8'), given);
  return validatePodStages(given, 'simulate.stages');
}
