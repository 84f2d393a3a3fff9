// What the API server's webhooks share (k8s.io/apiserver/pkg/util/webhook): the kubeconfig file that
// names the remote service and the credentials to reach it, and one JSON POST to it. The token
// authenticator, the audit backend's target and the authorization webhook all read their file here.
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dirname, resolve } from 'node:path';
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';

/** Where the reviews go and with which credentials (the kubeconfig file's first cluster and user). */
export interface WebhookTarget {
  readonly server: string;
  readonly caPem?: string;
  readonly certPem?: string;
  readonly keyPem?: string;
  readonly token?: string;
}

interface KubeconfigFile {
  clusters?: { cluster?: Record<string, string | undefined> }[];
  users?: { user?: Record<string, string | undefined> }[];
}

async function material(
  entry: Record<string, string | undefined> | undefined,
  field: string,
  base: string,
): Promise<string | undefined> {
  const data = entry?.[`${field}-data`];
  if (data !== undefined) return Buffer.from(data, 'base64').toString();
  const path = entry?.[field];
  return path === undefined ? undefined : readFile(resolve(base, path), 'utf8');
}

/** A webhook's kubeconfig file (--authentication-token-webhook-config-file and the like). */
export async function loadWebhookTarget(path: string): Promise<WebhookTarget> {
  const text = await readFile(path, 'utf8');
  const file = (yamlLibrary().parse(text) ?? {}) as KubeconfigFile;
  const cluster = file.clusters?.[0]?.cluster;
  const user = file.users?.[0]?.user;
  const server = cluster?.server;
  if (server === undefined || server === '') throw new Error(`no server found in ${JSON.stringify(path)}`);
  const base = dirname(path);
  const [caPem, certPem, keyPem] = await Promise.all([
    material(cluster, 'certificate-authority', base),
    material(user, 'client-certificate', base),
    material(user, 'client-key', base),
  ]);
  return {
    server,
    ...(caPem === undefined ? {} : { caPem }),
    ...(certPem === undefined ? {} : { certPem }),
    ...(keyPem === undefined ? {} : { keyPem }),
    ...(user?.token === undefined ? {} : { token: user.token }),
  };
}

/** kube's webhook client timeout when the configuration names none. */
export const defaultWebhookTimeoutMs = 30_000;

export interface WebhookPost {
  readonly body: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** The service's answer, whatever its status code. */
export interface WebhookResponse {
  readonly statusCode: number;
  readonly text: string;
  /** The Retry-After header, when the service sent one. */
  readonly retryAfter?: string;
}

/** One JSON POST to the target; rejects only when no answer came (refused, reset, timed out). */
export function postToWebhook(target: WebhookTarget, post: WebhookPost): Promise<WebhookResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
  const secure = target.server.startsWith('https:');
  const send = secure ? httpsRequest : httpRequest;
  const tls = secure
    ? {
        ...(target.caPem === undefined ? {} : { ca: target.caPem }),
        ...(target.certPem === undefined ? {} : { cert: target.certPem }),
        ...(target.keyPem === undefined ? {} : { key: target.keyPem }),
      }
    : {};
  const options = {
    method: 'POST',
    headers,
    timeout: post.timeoutMs ?? defaultWebhookTimeoutMs,
    ...(post.signal === undefined ? {} : { signal: post.signal }),
    ...tls,
  };
  return new Promise((resolvePromise, reject) => {
    const req = send(target.server, options, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('error', reject);
      res.on('end', () => {
        const retryAfter = res.headers['retry-after'];
        resolvePromise({
          statusCode: res.statusCode ?? 0,
          text,
          ...(retryAfter === undefined ? {} : { retryAfter }),
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error('context deadline exceeded')));
    req.on('error', reject);
    req.end(post.body);
  });
}
