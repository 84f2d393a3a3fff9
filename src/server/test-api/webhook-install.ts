// envtest's WebhookInstallOptions for Capstan: the admission webhook configurations of an operator's
// manifests (or given as objects) installed to call a webhook server the test runs itself. Each
// webhook that names a Service is pointed at https://<host>:<port><service path> instead, every
// webhook trusts a CA made for the purpose, and the serving certificate and key that CA signed for
// the host are handed back for the test's HTTPS server, as envtest writes them to its cert dir.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import type { KubeObject } from '../../api/meta.js';
import { createCertificate, type Issuer } from '../tls/certificate.js';
import { keyPem } from '../tls/pem-files.js';
import { createOrReplace } from './admin-calls.js';
import type { ClientTarget } from './http-client.js';
import { readManifests } from './manifests.js';

export interface WebhookInstallOptions {
  /** Manifest files or directories (as CRDInstallOptions'); kinds other than the two configurations are skipped. */
  readonly paths?: readonly string[];
  /** MutatingWebhookConfigurations and ValidatingWebhookConfigurations as objects. */
  readonly objects?: readonly KubeObject[];
  readonly errorIfPathMissing?: boolean;
  /** Where the test's webhook server listens: default 127.0.0.1 and a free port. */
  readonly host?: string;
  readonly port?: number;
}

/** What the test's webhook server serves with, and where. */
export interface WebhookServing {
  readonly host: string;
  readonly port: number;
  /** `https://<host>:<port>`: each webhook's service path is appended to it. */
  readonly url: string;
  readonly certPem: string;
  readonly keyPem: string;
  /** The CA every installed webhook trusts (its caBundle). */
  readonly caPem: string;
  /** The configurations installed, as `<kind>/<name>`. */
  readonly installed: readonly string[];
}

interface ClientConfig {
  url?: string;
  service?: { path?: string };
  caBundle?: string;
}

const configPaths: Readonly<Record<string, string>> = {
  MutatingWebhookConfiguration: '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
  ValidatingWebhookConfiguration: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
};

async function freePort(host: string): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A CA made for the webhooks, and a serving certificate it signed for the host and localhost. */
function servingPair(host: string): { caPem: string; certPem: string; keyPem: string } {
  const caKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const issuer: Issuer = { name: { commonName: 'capstan-webhook-ca' }, ...caKeys };
  const now = Date.now();
  const validity = { notBefore: new Date(now - 60_000), notAfter: new Date(now + 7 * 86_400_000) };
  const caPem = createCertificate(
    { subject: issuer.name, publicKey: caKeys.publicKey, isCA: true, ...validity },
    issuer,
  );
  const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const altNames = [...new Set([host, 'localhost'])];
  const certPem = createCertificate(
    {
      subject: { commonName: host },
      publicKey: keys.publicKey,
      isCA: false,
      usage: 'server',
      altNames,
      ...validity,
    },
    issuer,
  );
  return { caPem, certPem, keyPem: keyPem(keys.privateKey) };
}

/** The local server's URL for a webhook's service path. */
export function localWebhookURL(base: string, path: string): string {
  return path === '' || path.startsWith('/') ? `${base}${path}` : `${base}/${path}`;
}

/** The configuration with each webhook aimed at the local server and trusting its CA. */
function aimed(config: KubeObject, to: { url: string; caPem: string }): KubeObject {
  const webhooks = ((config as { webhooks?: { clientConfig?: ClientConfig }[] }).webhooks ?? []).map(
    (hook) => {
      const cc: ClientConfig = { ...hook.clientConfig, caBundle: Buffer.from(to.caPem).toString('base64') };
      if (cc.service !== undefined) {
        const path = cc.service.path ?? '';
        cc.url = `${to.url}${path.startsWith('/') || path === '' ? '' : '/'}${path}`;
        delete cc.service;
      }
      return { ...hook, clientConfig: cc };
    },
  );
  return { ...config, webhooks };
}

/** Installs the configurations aimed at a local webhook server; resolves with how to serve it. */
export async function installWebhooks(t: ClientTarget, o: WebhookInstallOptions): Promise<WebhookServing> {
  const read = await readManifests(o.paths ?? [], {
    kinds: new Set(Object.keys(configPaths)),
    errorIfPathMissing: o.errorIfPathMissing ?? true,
  });
  const host = o.host ?? '127.0.0.1';
  const port = o.port ?? (await freePort(host));
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const pair = servingPair(host);
  const installed: string[] = [];
  for (const config of [...(o.objects ?? []), ...read]) {
    const path = configPaths[config.kind ?? ''];
    if (path === undefined) throw new Error(`not a webhook configuration: ${config.kind ?? '(no kind)'}`);
    await createOrReplace(t, { path, obj: aimed(config, { url, caPem: pair.caPem }) });
    installed.push(`${config.kind ?? ''}/${config.metadata?.name ?? ''}`);
  }
  return { host, port, url, ...pair, installed };
}
