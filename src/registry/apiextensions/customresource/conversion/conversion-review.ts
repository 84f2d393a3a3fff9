// The ConversionReview exchanged with a CRD's conversion webhook (apiextensions.k8s.io v1 and
// v1beta1), and the checks of its answer as kube's webhook_converter.go makes them
// (getConvertedObjectsFromResponse). The texts are kube's: they reach clients inside Status messages.
import type { KubeObject } from '../../../../api/meta.js';

export const conversionReviewVersions = ['v1beta1', 'v1'] as const;
export type ConversionReviewVersion = (typeof conversionReviewVersions)[number];

/** The first of the CRD's versions this server speaks, in the CRD's order (kube's choice). */
export function negotiateConversionReviewVersion(
  accepted: readonly string[],
): ConversionReviewVersion | undefined {
  return accepted.find((v): v is ConversionReviewVersion =>
    (conversionReviewVersions as readonly string[]).includes(v),
  );
}

export interface ConversionReviewRequest {
  readonly apiVersion: string;
  readonly kind: 'ConversionReview';
  readonly request: { uid: string; desiredAPIVersion: string; objects: readonly KubeObject[] };
}

export function conversionReview(
  version: ConversionReviewVersion,
  request: ConversionReviewRequest['request'],
): ConversionReviewRequest {
  return { apiVersion: `apiextensions.k8s.io/${version}`, kind: 'ConversionReview', request };
}

/** Go's schema.GroupVersionKind String(): `group/version, Kind=Kind` (the core group as ""). */
export function gvkString(apiVersion: string | undefined, kind: string | undefined): string {
  const av = apiVersion ?? '';
  const slash = av.indexOf('/');
  const [group, version] = slash < 0 ? ['', av] : [av.slice(0, slash), av.slice(slash + 1)];
  return `${group}/${version}, Kind=${kind ?? ''}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The converted objects of a webhook's answer; throws an Error worded as kube's when the answer is
 * malformed or does not report success. v1beta1 answers are not checked for kind and uid, as kube
 * does not check them either.
 */
export function convertedObjectsOf(
  answer: unknown,
  expected: { uid: string; version: ConversionReviewVersion },
): unknown[] {
  const review = isRecord(answer) ? answer : {};
  if (expected.version === 'v1') {
    const want = gvkString('apiextensions.k8s.io/v1', 'ConversionReview');
    const got = gvkString(
      typeof review['apiVersion'] === 'string' ? review['apiVersion'] : '',
      typeof review['kind'] === 'string' ? review['kind'] : '',
    );
    if (got !== want) throw new Error(`expected webhook response of ${want}, got ${got}`);
  }
  const response = review['response'];
  if (!isRecord(response)) throw new Error('no response provided');
  if (expected.version === 'v1') {
    const uid = typeof response['uid'] === 'string' ? response['uid'] : '';
    if (uid !== expected.uid)
      throw new Error(`expected response.uid=${JSON.stringify(expected.uid)}, got ${JSON.stringify(uid)}`);
  }
  const result = isRecord(response['result']) ? response['result'] : {};
  const status = typeof result['status'] === 'string' ? result['status'] : '';
  if (status !== 'Success') {
    const message = typeof result['message'] === 'string' ? result['message'] : '';
    throw new Error(message !== '' ? message : `response.result.status was '${status}', not 'Success'`);
  }
  const objects = response['convertedObjects'];
  return Array.isArray(objects) ? (objects as unknown[]) : [];
}
