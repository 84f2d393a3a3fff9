// The simulated kubelets' pod lifecycle as data (kwok's Stage resources, simplified): an ordered
// list of stages, the first whose selector matches a pod deciding what it becomes next and after
// how long. A pod no stage matches stays as it is. The defaults are the behaviour documented in
// kubelets.ts; a user passes others with --simulate-stages FILE or startCapstan's simulate.stages.
import type { Pod } from '../../../api/core/v1/pod.js';
import { yamlLibrary } from '../../../machinery/yaml/yaml-library.js';
import { exitCodeAnnotation, runSecondsAnnotation, stayPendingAnnotation } from './pod-status.js';

export interface PodStageSelector {
  /** The pod's phase now (Pending or Running; finished pods have no next stage). */
  readonly phases?: readonly ('Pending' | 'Running')[];
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchAnnotations?: Readonly<Record<string, string>>;
  /** Annotations the pod must have, whatever their values. */
  readonly hasAnnotations?: readonly string[];
  readonly restartPolicies?: readonly ('Always' | 'OnFailure' | 'Never')[];
  /** Kinds of which one of the pod's owners must be (kwok's `.metadata.ownerReferences.[].kind`). */
  readonly ownerKinds?: readonly string[];
}

export interface PodStageDelay {
  readonly seconds?: number;
  /** An annotation holding the seconds instead (its absence or a bad value falls back to `seconds`). */
  readonly secondsFromAnnotation?: string;
}

/** What the pod becomes: left as it is, started (ready or not), or its containers exited. */
export type PodStageNext =
  | { readonly stay: true }
  | { readonly phase: 'Running'; readonly ready?: boolean }
  | { readonly exit: { readonly code?: number; readonly codeFromAnnotation?: string } };

export interface PodStage {
  readonly name: string;
  readonly selector?: PodStageSelector;
  /** Counted from the pod's binding (Pending) or from its containers' start (Running). */
  readonly delay?: PodStageDelay;
  readonly next: PodStageNext;
}

export interface PodStages {
  readonly stages: readonly PodStage[];
}

export const defaultPodStages: PodStages = {
  stages: [
    {
      name: 'stay-pending',
      selector: { phases: ['Pending'], matchAnnotations: { [stayPendingAnnotation]: 'true' } },
      next: { stay: true },
    },
    { name: 'start', selector: { phases: ['Pending'] }, next: { phase: 'Running', ready: true } },
    {
      name: 'complete',
      selector: {
        phases: ['Running'],
        hasAnnotations: [exitCodeAnnotation],
        restartPolicies: ['Never', 'OnFailure'],
      },
      delay: { seconds: 1, secondsFromAnnotation: runSecondsAnnotation },
      next: { exit: { code: 0, codeFromAnnotation: exitCodeAnnotation } },
    },
    {
      // A Job's pods run to completion as kwok's pod-complete stage has them: a test of an
      // operator that makes Jobs sees them finish without annotating templates it does not write.
      name: 'job-complete',
      selector: { phases: ['Running'], ownerKinds: ['Job'], restartPolicies: ['Never', 'OnFailure'] },
      delay: { seconds: 1, secondsFromAnnotation: runSecondsAnnotation },
      next: { exit: { code: 0 } },
    },
  ],
};

export function matchingStage(stages: PodStages, pod: Pod): PodStage | undefined {
  const phase = pod.status?.phase ?? 'Pending';
  const labels = pod.metadata?.labels ?? {};
  const annotations = pod.metadata?.annotations ?? {};
  const policy = pod.spec?.restartPolicy ?? 'Always';
  return stages.stages.find(({ selector: s = {} }) => {
    if (s.phases !== undefined && !s.phases.some((p) => p === phase)) return false;
    if (s.restartPolicies !== undefined && !s.restartPolicies.some((p) => p === policy)) return false;
    const owners = pod.metadata?.ownerReferences ?? [];
    if (s.ownerKinds !== undefined && !owners.some((o) => s.ownerKinds?.includes(o.kind) === true))
      return false;
    const all = (want: Readonly<Record<string, string>> | undefined, have: Record<string, string>) =>
      Object.entries(want ?? {}).every(([k, v]) => have[k] === v);
    return (
      all(s.matchLabels, labels) &&
      all(s.matchAnnotations, annotations) &&
      (s.hasAnnotations ?? []).every((k) => annotations[k] !== undefined)
    );
  });
}

export function stageDelayMs(stage: PodStage, pod: Pod): number {
  const from = stage.delay?.secondsFromAnnotation;
  const text = from === undefined ? undefined : pod.metadata?.annotations?.[from];
  const annotated = text === undefined ? Number.NaN : Number.parseFloat(text);
  const seconds = Number.isNaN(annotated) || annotated < 0 ? (stage.delay?.seconds ?? 0) : annotated;
  return seconds * 1000;
}

/** The exit code a stage gives the pod's containers (an annotation's value when it parses). */
export function stageExitCode(exit: { code?: number; codeFromAnnotation?: string }, pod: Pod): number {
  const from = exit.codeFromAnnotation;
  const text = from === undefined ? undefined : pod.metadata?.annotations?.[from];
  const code = text === undefined ? Number.NaN : Number.parseInt(text, 10);
  return Number.isNaN(code) ? (exit.code ?? 0) : code;
}

export class PodStagesError extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Reads stages from JSON or YAML (`{stages: [...]}`), refusing what it does not understand. */
export function parsePodStages(text: string, source: string): PodStages {
  let doc: unknown;
  try {
    doc = yamlLibrary().parse(text);
  } catch (err) {
    throw new PodStagesError(`${source}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return validatePodStages(doc, source);
}

export function validatePodStages(doc: unknown, source: string): PodStages {
  const fail = (what: string): never => {
    throw new PodStagesError(`${source}: ${what}`);
  };
  if (!isRecord(doc) || !Array.isArray(doc['stages'])) return fail('expected an object with a stages list');
  (doc['stages'] as unknown[]).forEach((stage, i) => {
    const at = `stages[${String(i)}]`;
    if (!isRecord(stage)) return fail(`${at}: expected an object`);
    if (typeof stage['name'] !== 'string' || stage['name'] === '') fail(`${at}.name: required`);
    const next = stage['next'];
    if (!isRecord(next)) return fail(`${at}.next: required`);
    const kinds = ['stay', 'phase', 'exit'].filter((k) => next[k] !== undefined);
    if (kinds.length !== 1) fail(`${at}.next: exactly one of stay, phase (Running) or exit`);
    if (next['phase'] !== undefined && next['phase'] !== 'Running')
      fail(`${at}.next.phase: only Running (use exit for Succeeded or Failed)`);
    const selector = stage['selector'];
    if (selector !== undefined && !isRecord(selector)) fail(`${at}.selector: expected an object`);
    const phases = isRecord(selector) ? selector['phases'] : undefined;
    if (Array.isArray(phases) && phases.some((p) => p !== 'Pending' && p !== 'Running'))
      fail(`${at}.selector.phases: Pending or Running`);
    const ownerKinds = isRecord(selector) ? selector['ownerKinds'] : undefined;
    if (
      ownerKinds !== undefined &&
      (!Array.isArray(ownerKinds) || ownerKinds.some((k) => typeof k !== 'string'))
    )
      fail(`${at}.selector.ownerKinds: expected a list of kinds`);
    const delay = stage['delay'];
    if (delay !== undefined && (!isRecord(delay) || ((delay['seconds'] ?? 0) as number) < 0))
      fail(`${at}.delay: expected {seconds, secondsFromAnnotation} with seconds >= 0`);
    return undefined;
  });
  return doc as unknown as PodStages;
}
