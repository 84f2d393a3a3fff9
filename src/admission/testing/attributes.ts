// Attributes for plugin unit tests: a request on a core resource, with only what a case changes.
import type { KubeObject } from '../../api/meta.js';
import type { UserInfo } from '../../registry/rest/context.js';
import type { Attributes, Operation } from '../attributes.js';

export interface AttributesInit {
  readonly operation?: Operation;
  /** The API group, '' (core) unless given. */
  readonly group?: string;
  readonly resource?: string;
  readonly kind?: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly object?: KubeObject | null;
  readonly oldObject?: KubeObject | null;
  readonly dryRun?: boolean;
  readonly userInfo?: UserInfo;
}

export function attributesOf(init: AttributesInit = {}): Attributes {
  return {
    operation: init.operation ?? 'CREATE',
    kind: { group: init.group ?? '', version: 'v1', kind: init.kind ?? 'Pod' },
    resource: { group: init.group ?? '', version: 'v1', resource: init.resource ?? 'pods' },
    subresource: init.subresource ?? '',
    namespace: init.namespace ?? 'default',
    name: init.name ?? 'x',
    object: init.object ?? null,
    oldObject: init.oldObject ?? null,
    userInfo: init.userInfo ?? { name: 'u', groups: [] },
    dryRun: init.dryRun ?? false,
  };
}
