// Generated from k8s.io/api flowcontrol/v1 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.api.flowcontrol.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('ExemptPriorityLevelConfiguration')]: { nominalConcurrencyShares: 'nil', lendablePercent: 'nil' },
  [def('FlowDistinguisherMethod')]: {},
  [def('FlowSchema')]: {},
  [def('FlowSchemaCondition')]: { type: 'zero', status: 'zero', reason: 'zero', message: 'zero' },
  [def('FlowSchemaList')]: {},
  [def('FlowSchemaSpec')]: { distinguisherMethod: 'nil', rules: 'empty' },
  [def('FlowSchemaStatus')]: { conditions: 'empty' },
  [def('GroupSubject')]: {},
  [def('LimitResponse')]: { queuing: 'nil' },
  [def('LimitedPriorityLevelConfiguration')]: { lendablePercent: 'nil', borrowingLimitPercent: 'nil' },
  [def('NonResourcePolicyRule')]: {},
  [def('PolicyRulesWithSubjects')]: { resourceRules: 'empty', nonResourceRules: 'empty' },
  [def('PriorityLevelConfiguration')]: {},
  [def('PriorityLevelConfigurationCondition')]: {
    type: 'zero',
    status: 'zero',
    reason: 'zero',
    message: 'zero',
  },
  [def('PriorityLevelConfigurationList')]: {},
  [def('PriorityLevelConfigurationReference')]: {},
  [def('PriorityLevelConfigurationSpec')]: { limited: 'nil', exempt: 'nil' },
  [def('PriorityLevelConfigurationStatus')]: { conditions: 'empty' },
  [def('QueuingConfiguration')]: {},
  [def('ResourcePolicyRule')]: { clusterScope: 'zero' },
  [def('ServiceAccountSubject')]: {},
  [def('Subject')]: { user: 'nil', group: 'nil', serviceAccount: 'nil' },
  [def('UserSubject')]: {},
};

export const flowcontrolV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
