// --authorization-config (pkg/kubeapiserver/authorizer/config.go LoadAndValidateFile): an
// apiserver.config.k8s.io AuthorizationConfiguration in YAML or JSON, decoded with v1's defaults,
// validated with kube's messages, its webhooks' match conditions compiled and kubeconfigs read.
// Only KubeConfigFile connections exist outside a cluster; InClusterConfig is refused.
import { readFile } from 'node:fs/promises';
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';
import { parseGoDuration } from '../../machinery/time/go-duration.js';
import { FieldPath, toAggregate } from '../../machinery/validation/index.js';
import { loadWebhookTarget } from '../authn/webhook-client.js';
import {
  authorizerNameErrors,
  validateAuthorizerEntries,
  type AuthorizerEntry,
  type WebhookEntry,
} from './authorization-config-validation.js';
import type { AuthorizerConfig, LoadedAuthorization } from './authorizer-config.js';
import { supportedAuthorizationModes } from './modes.js';
import { compileMatchConditions } from './webhook/match-conditions.js';
import type { SubjectAccessReviewVersion } from './webhook/subject-access-review.js';
import type { AuthorizerFailurePolicy } from './webhook/webhook-authorizer.js';

const group = 'apiserver.config.k8s.io';
const versions = ['v1', 'v1beta1', 'v1alpha1'];
const kind = 'AuthorizationConfiguration';

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A metav1.Duration; absent is 0 (then defaulted), unparsable NaN (reported by validation). */
function duration(v: unknown): number {
  if (v === undefined || v === null || v === '') return 0;
  try {
    return parseGoDuration(text(v));
  } catch {
    return Number.NaN;
  }
}

function webhookEntry(w: Json): WebhookEntry {
  const info = isRecord(w['connectionInfo']) ? w['connectionInfo'] : {};
  const conditions = Array.isArray(w['matchConditions']) ? w['matchConditions'] : [];
  const kubeConfigFile = info['kubeConfigFile'];
  return {
    timeoutMs: duration(w['timeout']),
    // SetDefaults_WebhookConfiguration.
    authorizedTTLMs: duration(w['authorizedTTL']) || 300_000,
    unauthorizedTTLMs: duration(w['unauthorizedTTL']) || 30_000,
    subjectAccessReviewVersion: text(w['subjectAccessReviewVersion']),
    matchConditionSubjectAccessReviewVersion: text(w['matchConditionSubjectAccessReviewVersion']),
    failurePolicy: text(w['failurePolicy']),
    connectionInfo: {
      type: text(info['type']),
      ...(typeof kubeConfigFile === 'string' ? { kubeConfigFile } : {}),
    },
    matchConditions: conditions.map((c) => ({ expression: isRecord(c) ? text(c['expression']) : '' })),
  };
}

/** load.LoadFromData: the file's authorizers, or kube's decode error. */
function decode(data: string): AuthorizerEntry[] {
  const doc: unknown = yamlLibrary().parse(data);
  if (!isRecord(doc)) throw new Error("Object 'Kind' is missing in the configuration");
  const apiVersion = text(doc['apiVersion']);
  const docKind = text(doc['kind']);
  if (docKind === '') throw new Error(`Object 'Kind' is missing in '${data.trim()}'`);
  const [g, v] = apiVersion.split('/');
  if (g !== group || v === undefined || !versions.includes(v) || docKind !== kind)
    throw new Error(
      `no kind ${JSON.stringify(docKind)} is registered for version ${JSON.stringify(apiVersion)}`,
    );
  const list = Array.isArray(doc['authorizers']) ? doc['authorizers'] : [];
  return list.map((a: unknown) => {
    const r = isRecord(a) ? a : {};
    const webhook = r['webhook'];
    return {
      type: text(r['type']),
      name: text(r['name']),
      ...(isRecord(webhook) ? { webhook: webhookEntry(webhook) } : {}),
    };
  });
}

async function authorizerOf(entry: AuthorizerEntry, index: number): Promise<AuthorizerConfig> {
  const w = entry.webhook;
  if (w === undefined) return { type: entry.type, name: entry.name };
  if (w.connectionInfo.type !== 'KubeConfigFile')
    throw new Error(`authorizers[${index}].connectionInfo.type: InClusterConfig is not supported by Capstan`);
  const compiled = await compileMatchConditions(
    w.matchConditions.map((c) => c.expression),
    FieldPath.of('authorizers').index(index),
  );
  if (!compiled.ok) throw new Error(toAggregate(compiled.errors)?.error() ?? '');
  return {
    type: entry.type,
    name: entry.name,
    webhook: {
      name: entry.name,
      target: await loadWebhookTarget(w.connectionInfo.kubeConfigFile ?? ''),
      version: w.subjectAccessReviewVersion as SubjectAccessReviewVersion,
      authorizedTTLMs: w.authorizedTTLMs,
      unauthorizedTTLMs: w.unauthorizedTTLMs,
      timeoutMs: w.timeoutMs,
      failurePolicy: w.failurePolicy as AuthorizerFailurePolicy,
      ...(compiled.matches === undefined ? {} : { matchConditions: compiled.matches }),
    },
  };
}

/** LoadAndValidateFile, then the authorizers built as reload.go builds them. */
export async function loadAuthorizationConfigFile(path: string): Promise<LoadedAuthorization> {
  const data = await readFile(path, 'utf8');
  let entries: AuthorizerEntry[];
  try {
    entries = decode(data);
  } catch (err) {
    throw new Error(`failed to load AuthorizationConfiguration from file: ${(err as Error).message}`);
  }
  const invalid = toAggregate(validateAuthorizerEntries(entries));
  if (invalid !== undefined) throw new Error(invalid.error());
  const unsupported = entries.find((e) => !supportedAuthorizationModes.includes(e.type));
  if (unsupported !== undefined)
    throw new Error(`authorizer type ${JSON.stringify(unsupported.type)} is not supported by Capstan`);
  const names = authorizerNameErrors(entries);
  if (names.length > 0) throw new Error(names.length === 1 ? names[0] : `[${names.join(', ')}]`);
  const authorizers = await Promise.all(entries.map(authorizerOf));
  return { modes: authorizers.map((a) => a.type), authorizers };
}
