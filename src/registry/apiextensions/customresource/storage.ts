// The storage of one CustomResourceDefinition's resources (apiextensions-apiserver's
// customresource.NewStorage): a generic Store of the storage version under
// /registry/<group>/<plural>/, and for every served version a converting view of it (conversion
// strategy None: only apiVersion changes, synchronously; strategy Webhook: the CRD's conversion
// webhook, awaited; the version's defaults apply on read) with the version's own validation,
// printer columns and status and scale subresources.
import type { RequestContext } from '../../rest/context.js';
import type { CustomResourceDefinition } from '../../../api/apiextensions/v1/crd.js';
import type { KubeList, KubeObject } from '../../../api/meta.js';
import { apiVersionOf } from '../../../api/scheme.js';
import { completeWithOptions } from '../../generic/complete.js';
import { AsyncConvertingView, type AsyncVersionConversion } from '../../generic/async-converting-view.js';
import { ConvertingView } from '../../generic/converting-view.js';
import type { RESTOptionsGetter } from '../../generic/rest-options.js';
import { ScaleREST } from '../../generic/scale.js';
import { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import type { ObjectCountMetric } from '../../generic/store-definition.js';
import type { ErrorList } from '../../../machinery/validation/index.js';
import type { Storage, TableConvertor } from '../../rest/capabilities.js';
import type { UpdateStrategy } from '../../rest/strategy.js';
import { groupResourcePrefixed, storedUnstructured } from '../storage.js';
import {
  columnsOf,
  isNamespaced,
  selectableFieldsOf,
  schemaOf,
  servedVersions,
  storageVersionOf,
  subresourcesOf,
} from './crd-version.js';
import { compileCustomResourceRules } from './cel/compile.js';
import { replicasPathsOf, scaleOptions } from './scale-paths.js';
import { selectableFieldsAttrs, selectableFieldsConversion } from './selectable-fields.js';
import {
  customResourceStatusStrategy,
  customResourceStrategy,
  validateServedObject,
  warnTo,
  type CustomResourceStrategy,
} from './strategy.js';
import { StatusView } from './status-view.js';
import { newCustomResourceTableConvertor } from './table/table-convertor.js';
import type { WebhookPoster } from '../../webhook/client.js';
import {
  awaitedConversion,
  noneConversion,
  usesWebhook,
  webhookConversion,
} from './conversion/version-conversion.js';
import { holdsDefaults } from './schema/defaults.js';

export interface CustomResourceStorageOptions {
  readonly crd: CustomResourceDefinition;
  readonly restOptionsGetter: RESTOptionsGetter;
  readonly objectCountMetric?: ObjectCountMetric;
  /** Calls the CRD's conversion webhook (strategy Webhook). */
  readonly webhookClient?: WebhookPoster;
}

export interface CustomResourceStorage {
  /** Served version → resource path (`widgets`, `widgets/status`, `widgets/scale`) → storage. */
  readonly versions: ReadonlyMap<string, Readonly<Record<string, Storage>>>;
  /** Served versions, most preferred first. */
  readonly versionOrder: readonly string[];
  readonly store: Store;
  destroy(): Promise<void>;
}

interface VersionParts {
  readonly strategy: CustomResourceStrategy;
  readonly statusStrategy: UpdateStrategy;
  readonly tableConvertor: TableConvertor;
  /** The version's schema and rules on an object of this version (ahead of a webhook conversion). */
  readonly servedErrors: (ctx: RequestContext, obj: KubeObject, old: KubeObject | null) => ErrorList;
}

export async function newCustomResourceStorage(
  opts: CustomResourceStorageOptions,
): Promise<CustomResourceStorage> {
  const { crd } = opts;
  const { group, names } = crd.spec;
  const storageVersion = storageVersionOf(crd);
  const apiVersion = apiVersionOf({ group, version: storageVersion });
  const kind = names.kind;
  const listKind = names.listKind ?? `${kind}List`;
  const qualifiedResource = { group, resource: names.plural };
  const namespaced = isNamespaced(crd);
  // Each served version validates against its own schema and rules (the objects differ only in
  // apiVersion, conversion strategy None, so they are checked as stored).
  const versionParts = async (version: string): Promise<VersionParts> => {
    const schema = schemaOf(crd, version);
    const { validator: ruleValidator } = await compileCustomResourceRules(schema);
    const { status, scale } = subresourcesOf(crd, version);
    const strategyOptions = {
      namespaced,
      apiVersion,
      kind,
      schema,
      statusSubresource: status !== undefined,
      ...(ruleValidator === undefined ? {} : { ruleValidator }),
      ...(scale === undefined ? {} : { scale }),
    };
    return {
      strategy: customResourceStrategy(strategyOptions),
      statusStrategy: customResourceStatusStrategy(strategyOptions),
      tableConvertor: newCustomResourceTableConvertor({
        columns: columnsOf(crd, version),
        resource: qualifiedResource,
      }),
      servedErrors: (ctx, obj, old) =>
        validateServedObject(obj, strategyOptions, { old: old ?? undefined, warn: warnTo(ctx) }),
    };
  };
  const stored = await versionParts(storageVersion);
  const selectable = selectableFieldsOf(crd, storageVersion);
  const store = await completeWithOptions<KubeObject>(
    {
      qualifiedResource,
      singularName: names.singular ?? kind.toLowerCase(),
      newFunc: () => ({ apiVersion, kind }),
      newListFunc: (): KubeList => ({ apiVersion, kind: listKind, metadata: {}, items: [] }),
      createStrategy: stored.strategy,
      updateStrategy: stored.strategy,
      deleteStrategy: {},
      tableConvertor: stored.tableConvertor,
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      fieldLabelConversion: selectableFieldsConversion(selectable),
    },
    {
      restOptions: storedUnstructured(groupResourcePrefixed(opts.restOptionsGetter)),
      attrFunc: selectableFieldsAttrs(selectable, namespaced),
      ...(opts.objectCountMetric === undefined ? {} : { objectCountMetric: opts.objectCountMetric }),
    },
  );
  const versions = new Map<string, Record<string, Storage>>();
  const order = servedVersions(crd);
  const replicasPaths = replicasPathsOf(crd);
  for (const v of order) {
    const parts = v.name === storageVersion ? stored : await versionParts(v.name);
    const served = apiVersionOf({ group, version: v.name });
    const schema = schemaOf(crd, v.name);
    const pair = { served, stored: apiVersion, kind, schema };
    // Through a webhook the stored object is of the storage version: its schema and rules check it.
    const webhook = usesWebhook(crd) && served !== apiVersion;
    const checks = webhook ? stored : parts;
    const versionStore = store.withStrategies({
      createStrategy: checks.strategy,
      updateStrategy: checks.strategy,
      tableConvertor: parts.tableConvertor,
    });
    const sub = subresourcesOf(crd, v.name);
    const paths: Record<string, Storage> = {};
    let statusConversion: AsyncVersionConversion;
    if (webhook) {
      statusConversion = webhookConversion(crd, {
        ...pair,
        client: opts.webhookClient,
        servedErrors: parts.servedErrors,
      });
      paths[names.plural] = new AsyncConvertingView(versionStore, statusConversion);
    } else {
      const conversion = noneConversion(pair);
      statusConversion = awaitedConversion(conversion);
      // The storage version without defaults reads objects as stored: the store itself serves it,
      // and serves its stored JSON as it is.
      const identity = served === apiVersion && !holdsDefaults(schema);
      paths[names.plural] = identity ? versionStore : new ConvertingView(versionStore, conversion);
    }
    if (sub.status !== undefined)
      paths[`${names.plural}/status`] = new StatusView(
        new StatusREST(versionStore, checks.statusStrategy),
        statusConversion,
      );
    // The scale REST reads and writes stored objects: through a webhook, at the storage version's paths.
    const scale = webhook ? (subresourcesOf(crd, storageVersion).scale ?? sub.scale) : sub.scale;
    if (sub.scale !== undefined && scale !== undefined)
      paths[`${names.plural}/scale`] = new ScaleREST({
        store: versionStore,
        ...scaleOptions(scale),
        replicasOwners: { apiVersion: served, paths: replicasPaths },
        keepsParentResourceVersion: true,
      });
    versions.set(v.name, paths);
  }
  return {
    versions,
    versionOrder: order.map((v) => v.name),
    store,
    destroy: () => store.destroy(),
  };
}
