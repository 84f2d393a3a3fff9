// --audit-policy-file: an audit.k8s.io/v1 Policy in YAML or JSON (k8s.io/apiserver/pkg/audit/policy/
// reader.go), checked as kube's validation does for levels and stages.
import { readFile } from 'node:fs/promises';
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';
import {
  levels,
  stages,
  type AuditLevel,
  type AuditPolicy,
  type AuditPolicyRule,
  type Stage,
} from './types.js';

const quoteAll = (values: readonly string[]): string => values.map((v) => JSON.stringify(v)).join(', ');

function checkStages(field: string, value: unknown, errs: string[]): Stage[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    errs.push(`${field}: Invalid value: must be a list of stages`);
    return [];
  }
  return value.filter((s, i): s is Stage => {
    if ((stages as readonly unknown[]).includes(s)) return true;
    errs.push(
      `${field}[${i}]: Unsupported value: ${JSON.stringify(s)}: supported values: ${quoteAll(stages)}`,
    );
    return false;
  });
}

function checkRule(raw: Record<string, unknown>, i: number, errs: string[]): AuditPolicyRule {
  const field = `rules[${i}]`;
  const level = raw.level;
  if (!(levels as readonly unknown[]).includes(level)) {
    errs.push(
      `${field}.level: Unsupported value: ${JSON.stringify(level ?? '')}: supported values: ${quoteAll(levels)}`,
    );
  }
  const nonResourceURLs = raw.nonResourceURLs as string[] | undefined;
  const hasResources = raw.resources !== undefined || raw.namespaces !== undefined;
  if (nonResourceURLs !== undefined && nonResourceURLs.length > 0 && hasResources) {
    errs.push(
      `${field}.nonResourceURLs: Invalid value: rules cannot apply to both regular resources and non-resource URLs`,
    );
  }
  return {
    ...(raw as unknown as AuditPolicyRule),
    level: level as AuditLevel,
    omitStages: checkStages(`${field}.omitStages`, raw.omitStages, errs),
  };
}

/** The policy a file's text describes; throws with every problem found. */
export function decodePolicy(text: string): AuditPolicy {
  const [doc] = yamlLibrary().parseAllDocuments(text);
  const raw = (doc?.toJS() ?? null) as Record<string, unknown> | null;
  if (raw === null || typeof raw !== 'object') throw new Error('the audit policy file is empty');
  if (raw.apiVersion !== 'audit.k8s.io/v1' || raw.kind !== 'Policy') {
    throw new Error(
      `unexpected audit policy kind ${JSON.stringify(`${String(raw.apiVersion)}, Kind=${String(raw.kind)}`)}: want audit.k8s.io/v1, Kind=Policy`,
    );
  }
  const errs: string[] = [];
  const rules = Array.isArray(raw.rules) ? (raw.rules as Record<string, unknown>[]) : [];
  if (rules.length === 0) errs.push('rules: Required value: a policy must have at least one rule');
  const policy: AuditPolicy = {
    rules: rules.map((r, i) => checkRule(r, i, errs)),
    omitStages: checkStages('omitStages', raw.omitStages, errs),
    omitManagedFields: raw.omitManagedFields === true,
  };
  if (errs.length > 0) throw new Error(errs.join(', '));
  return policy;
}

export async function loadPolicyFile(path: string): Promise<AuditPolicy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to read file path ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
  try {
    return decodePolicy(text);
  } catch (err) {
    throw new Error(`failed decoding file ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
}
