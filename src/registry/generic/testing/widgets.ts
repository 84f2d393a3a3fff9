// A small namespaced kind for the Store's tests: widgets have a spec and a status, a DNS-subdomain
// name, a spec.size that must not be negative, and a warning for size 13.
import type { KubeList, KubeObject } from '../../../api/meta.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  validateObjectMeta,
} from '../../../machinery/validation/index.js';
import type { RequestContext, UserInfo } from '../../rest/context.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { completeWithOptions } from '../complete.js';
import type { Store } from '../store.js';
import type { StoreDefinition, StoreOptions } from '../store-definition.js';
import { newDefaultTableConvertor } from '../table-convertor.js';

export interface Widget extends KubeObject {
  spec?: { size?: number; color?: string };
  status?: { phase?: string };
}

export const widgetResource = { group: 'example.com', resource: 'widgets' } as const;

function validateSize(w: Widget): FieldError[] {
  const size = w.spec?.size ?? 0;
  return size < 0
    ? [FieldError.invalid(FieldPath.of('spec', 'size'), size, 'must be greater than or equal to 0')]
    : [];
}

export const widgetStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: (_ctx, obj) => {
    obj.status = { phase: 'Pending' };
  },
  validate: (_ctx, obj) => [
    ...validateObjectMeta(obj.metadata ?? {}, { requiresNamespace: true, validateName: nameIsDNSSubdomain }),
    ...validateSize(obj),
  ],
  warningsOnCreate: (_ctx, obj) => (obj.spec?.size === 13 ? ['spec.size: 13 is unlucky'] : []),
  prepareForUpdate: (_ctx, obj, old) => {
    obj.status = old.status ?? {};
  },
  validateUpdate: (_ctx, obj) => validateSize(obj),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<Widget> & UpdateStrategy<Widget>;

/** A status subresource strategy: keeps the spec, takes the status. */
export const widgetStatusStrategy = {
  ...widgetStrategy,
  prepareForUpdate: (_ctx, obj, old) => {
    obj.spec = old.spec ?? {};
  },
} satisfies UpdateStrategy<Widget>;

/** Deletes with the requested grace period, 30 seconds when none is given. */
export const gracefulWidgetDeleteStrategy = {
  checkGracefulDelete: (_ctx, _obj, options) => {
    options.gracePeriodSeconds ??= 30;
    return options.gracePeriodSeconds > 0;
  },
} satisfies DeleteStrategy<Widget>;

export function widgetDefinition(overrides: Partial<StoreDefinition<Widget>> = {}): StoreDefinition<Widget> {
  return {
    qualifiedResource: widgetResource,
    singularName: 'widget',
    newFunc: () => ({ apiVersion: 'example.com/v1', kind: 'Widget' }),
    newListFunc: (): KubeList<Widget> => ({
      apiVersion: 'example.com/v1',
      kind: 'WidgetList',
      metadata: {},
      items: [],
    }),
    createStrategy: widgetStrategy,
    updateStrategy: widgetStrategy,
    deleteStrategy: {},
    tableConvertor: newDefaultTableConvertor(widgetResource),
    ...overrides,
  };
}

export function newWidgetStore(
  options: StoreOptions<Widget>,
  overrides: Partial<StoreDefinition<Widget>> = {},
): Promise<Store<Widget>> {
  return completeWithOptions(widgetDefinition(overrides), options);
}

export function widget(name: string, spec: Widget['spec'] = { size: 1 }): Widget {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec };
}

export interface TestContext extends RequestContext {
  readonly warnings: string[];
}

const tester: UserInfo = { name: 'tester', groups: ['system:authenticated'] };

/** A request context in `namespace` that records warnings. */
export function testContext(namespace = 'default'): TestContext {
  const warnings: string[] = [];
  return {
    signal: new AbortController().signal,
    namespace,
    user: tester,
    warnings,
    addWarning: (m) => {
      warnings.push(m);
    },
  };
}
