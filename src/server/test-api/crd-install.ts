// envtest's CRDInstallOptions for Capstan: CustomResourceDefinitions read from manifest files and
// directories, or given as objects, created (or updated, when they exist) through the API as the
// admin, then waited for as envtest's WaitForCRDs waits: until each is Established and discovery
// lists its resource in every served version, so that a test may use them at once.
import type { KubeObject } from '../../api/meta.js';
import { adminCall, createOrReplace } from './admin-calls.js';
import type { ClientTarget } from './http-client.js';
import { readManifests } from './manifests.js';
import { localWebhookURL } from './webhook-install.js';

export interface CRDInstallOptions {
  /**
   * Manifest files, or directories whose .yaml, .yml and .json files are read (not their
   * subdirectories, as envtest); documents of other kinds are skipped.
   */
  readonly paths?: readonly string[];
  /** CustomResourceDefinitions as objects (apiextensions.k8s.io/v1). */
  readonly objects?: readonly KubeObject[];
  /** A path that does not exist is an error (the default; envtest's ErrorIfPathMissing). */
  readonly errorIfPathMissing?: boolean;
  /** How long to wait for the CRDs to be served (default 10 s). */
  readonly timeoutMs?: number;
  /**
   * The test's webhook server (installWebhooks' answer): conversion webhooks that name a Service
   * call it instead, trusting its CA, as envtest points CRDs at its local webhook server.
   */
  readonly conversionWebhook?: { readonly url: string; readonly caPem: string };
}

interface CRD extends KubeObject {
  spec?: {
    group?: string;
    names?: { plural?: string };
    versions?: { name?: string; served?: boolean }[];
    conversion?: { strategy?: string; webhook?: { clientConfig?: Record<string, unknown> } };
  };
  status?: { conditions?: { type?: string; status?: string; message?: string }[] };
}

const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** The CRD with its conversion webhook aimed at the test's server, when it has one. */
function aimedConversion(crd: CRD, to: CRDInstallOptions['conversionWebhook']): CRD {
  const webhook = crd.spec?.conversion?.webhook;
  const cc = webhook?.clientConfig;
  if (to === undefined || crd.spec?.conversion?.strategy !== 'Webhook' || cc === undefined) return crd;
  const { service, ...rest } = cc as { service?: { path?: string } };
  const clientConfig = {
    ...rest,
    caBundle: Buffer.from(to.caPem).toString('base64'),
    ...(service === undefined ? {} : { url: localWebhookURL(to.url, service.path ?? '') }),
  };
  const conversion = { ...crd.spec.conversion, webhook: { ...webhook, clientConfig } };
  return { ...crd, spec: { ...crd.spec, conversion } };
}

/** Whether the CRD is Established and every served version lists its resource. */
async function served(t: ClientTarget, crd: CRD): Promise<boolean> {
  const path = `${crdsPath}/${crd.metadata?.name ?? ''}`;
  const current = (await adminCall(t, { method: 'GET', path })).obj as CRD;
  const established = current.status?.conditions?.some(
    (c) => c.type === 'Established' && c.status === 'True',
  );
  if (established !== true) return false;
  const { group = '', names, versions = [] } = current.spec ?? {};
  for (const v of versions.filter((x) => x.served === true)) {
    const list = await adminCall(t, { method: 'GET', path: `/apis/${group}/${v.name ?? ''}` });
    const resources = (list.obj['resources'] ?? []) as { name?: string }[];
    if (list.code !== 200 || !resources.some((r) => r.name === names?.plural)) return false;
  }
  return true;
}

/** Installs the CRDs and waits until they are served; resolves with their names. */
export async function installCRDs(t: ClientTarget, o: CRDInstallOptions): Promise<string[]> {
  const read = await readManifests(o.paths ?? [], {
    kinds: new Set(['CustomResourceDefinition']),
    errorIfPathMissing: o.errorIfPathMissing ?? true,
  });
  const crds = [...(o.objects ?? []), ...read].map((c) => aimedConversion(c, o.conversionWebhook));
  for (const obj of crds) await createOrReplace(t, { path: crdsPath, obj });
  const deadline = Date.now() + (o.timeoutMs ?? 10_000);
  for (const crd of crds) {
    while (!(await served(t, crd))) {
      if (Date.now() > deadline)
        throw new Error(
          `CustomResourceDefinition ${JSON.stringify(crd.metadata?.name)} was not served in time`,
        );
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  return crds.map((c) => c.metadata?.name ?? '');
}
