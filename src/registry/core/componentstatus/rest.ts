// componentstatuses (pkg/registry/core/componentstatus/rest.go): read-only, cluster-scoped, short
// name cs; every get and list probes the components afresh. The kind is deprecated, so each answer
// carries kube's deprecation warning.
import type { ComponentStatus } from '../../../api/core/v1/component-status.js';
import type { KubeList, KubeObject } from '../../../api/meta.js';
import type { Table } from '../../../api/table.js';
import { newBadRequest, newNotFound } from '../../../machinery/errors/index.js';
import { parseSelector as parseFieldSelector } from '../../../machinery/fields/index.js';
import { parseSelector as parseLabelSelector } from '../../../machinery/labels/index.js';
import { defaultFieldLabelConversion } from '../../generic/predicate.js';
import type { Getter, Lister, Scoper, Storage } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import type { GetOptions, ListOptions } from '../../rest/options.js';
import { componentStatus, type ComponentProbe } from './probe.js';
import { componentStatusTableConvertor } from './table.js';

export const componentStatusResource = { group: '', resource: 'componentstatuses' } as const;

type IncludeObject = { includeObject?: 'None' | 'Object' | 'Metadata' };

export class ComponentStatusREST implements Storage, Scoper, Getter, Lister {
  readonly #probes: readonly ComponentProbe[];

  constructor(probes: readonly ComponentProbe[]) {
    this.#probes = [...probes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  newObject(): ComponentStatus {
    return { apiVersion: 'v1', kind: 'ComponentStatus' };
  }
  newList(): KubeList<ComponentStatus> {
    return { apiVersion: 'v1', kind: 'ComponentStatusList', metadata: {}, items: [] };
  }
  destroy(): void {
    // Nothing is held.
  }
  namespaceScoped(): boolean {
    return false;
  }
  shortNames(): readonly string[] {
    return ['cs'];
  }
  singularName(): string {
    return 'componentstatus';
  }

  async get(ctx: RequestContext, name: string, _options: GetOptions): Promise<ComponentStatus> {
    const probe = this.#probes.find((p) => p.name === name);
    // kube answers a plain error (500) here; a 404 says the same without blaming the server.
    if (probe === undefined) throw newNotFound(componentStatusResource, name);
    return componentStatus(probe, ctx.signal);
  }

  /** List: every component, probed in parallel, then filtered by the label and field selectors. */
  async list(ctx: RequestContext, options: ListOptions): Promise<KubeList<ComponentStatus>> {
    const labels = parseLabelSelector(options.labelSelector ?? '');
    if (!labels.ok) throw newBadRequest(labels.message);
    const fields = parseFieldSelector(options.fieldSelector ?? '', defaultFieldLabelConversion);
    if (!fields.ok) throw newBadRequest(fields.message);
    const statuses = await Promise.all(this.#probes.map((p) => componentStatus(p, ctx.signal)));
    const items = statuses.filter(
      (cs) =>
        labels.selector.matches(cs.metadata?.labels ?? {}) &&
        fields.selector.matches({ 'metadata.name': cs.metadata?.name ?? '' }),
    );
    return { ...this.newList(), items };
  }

  convertToTable(ctx: RequestContext, obj: KubeObject | KubeList, opts: IncludeObject): Table {
    return componentStatusTableConvertor.convertToTable(ctx, obj, opts);
  }
}
