// Pod Security levels from namespace labels (k8s.io/pod-security-admission/api PolicyToEvaluate) and
// the evaluation of a pod against one level. Every version (`latest`, `v1.x`) is evaluated as the
// latest policy: Capstan implements only pod-security-admission's newest checks.
import type { InvalidFieldError } from '../../../machinery/errors/index.js';
import * as baseline from './checks-baseline.js';
import * as restricted from './checks-restricted.js';
import type { PodCheck, PodMetaView, PodSpecView } from './shape.js';

export const levels = ['privileged', 'baseline', 'restricted'] as const;
export type Level = (typeof levels)[number];
export const modes = ['enforce', 'audit', 'warn'] as const;
export type Mode = (typeof modes)[number];

export interface LevelVersion {
  readonly level: Level;
  /** As labelled (`latest` when unset); evaluated as latest whatever it says. */
  readonly version: string;
}

export type Policy = Readonly<Record<Mode, LevelVersion>>;

const labelPrefix = 'pod-security.kubernetes.io/';
const versionPattern = /^v1\.(0|[1-9][0-9]*)$/;

export const levelVersionText = (lv: LevelVersion): string => `${lv.level}:${lv.version}`;

const fieldError = (label: string, value: string, detail: string): InvalidFieldError => {
  const field = `metadata.labels[${label}]`;
  const body = `Invalid value: ${JSON.stringify(value)}: ${detail}`;
  return { causeType: 'FieldValueInvalid', field, body, text: `${field}: ${body}` };
};

/** The policy the labels ask for (privileged:latest where unset) and the errors of invalid labels. */
export function policyFromLabels(labels: Readonly<Record<string, string>> | undefined): {
  policy: Policy;
  errors: InvalidFieldError[];
} {
  const errors: InvalidFieldError[] = [];
  const one = (mode: Mode): LevelVersion => {
    const levelLabel = `${labelPrefix}${mode}`;
    const versionLabel = `${levelLabel}-version`;
    let level: Level = 'privileged';
    const rawLevel = labels?.[levelLabel];
    if (rawLevel !== undefined) {
      const found = levels.find((l) => l === rawLevel);
      if (found === undefined) {
        errors.push(fieldError(levelLabel, rawLevel, `must be one of ${levels.join(', ')}`));
        // An invalid enforce level fails closed, as kube's does; audit and warn fall back to it.
        level = 'restricted';
      } else level = found;
    }
    let version = 'latest';
    const rawVersion = labels?.[versionLabel];
    if (rawVersion !== undefined) {
      if (rawVersion === 'latest' || versionPattern.test(rawVersion)) version = rawVersion;
      else errors.push(fieldError(versionLabel, rawVersion, 'must be "latest" or "v1.x"'));
    }
    return { level, version };
  };
  const enforce = one('enforce');
  const audit = one('audit');
  const warn = one('warn');
  return { policy: { enforce, audit, warn }, errors };
}

// Checks in kube's order: the Baseline ones by ID, then the Restricted ones by ID.
const baselineChecks: readonly PodCheck[] = [
  baseline.appArmorProfile,
  baseline.capabilitiesBaseline,
  baseline.hostNamespaces,
  baseline.hostPathVolumes,
  baseline.hostPorts,
  baseline.privileged,
  baseline.procMount,
  baseline.seLinuxOptions,
  baseline.seccompProfileBaseline,
  baseline.sysctls,
  baseline.windowsHostProcess,
];
const overriddenByRestricted: ReadonlySet<PodCheck> = new Set([
  baseline.capabilitiesBaseline,
  baseline.seccompProfileBaseline,
]);
const restrictedChecks: readonly PodCheck[] = [
  ...baselineChecks.filter((c) => !overriddenByRestricted.has(c)),
  restricted.allowPrivilegeEscalation,
  restricted.capabilitiesRestricted,
  restricted.restrictedVolumes,
  restricted.runAsNonRoot,
  restricted.runAsUser,
  restricted.seccompProfileRestricted,
];

export interface Evaluation {
  readonly allowed: boolean;
  /** ForbiddenReason: the reasons, comma-separated. */
  readonly reason: string;
  /** ForbiddenDetail: each reason with its detail in parentheses. */
  readonly detail: string;
}

/** Evaluator.EvaluatePod then AggregateCheckResults. */
export function evaluatePod(level: Level, meta: PodMetaView, spec: PodSpecView): Evaluation {
  const checks = level === 'restricted' ? restrictedChecks : level === 'baseline' ? baselineChecks : [];
  const results = checks.flatMap((check) => check(meta, spec) ?? []);
  return {
    allowed: results.length === 0,
    reason: results.map((r) => r.reason).join(', '),
    detail: results.map((r) => (r.detail === '' ? r.reason : `${r.reason} (${r.detail})`)).join(', '),
  };
}
