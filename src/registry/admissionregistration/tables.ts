// `kubectl get` columns of admissionregistration.k8s.io (pkg/printers/internalversion/printers.go):
// webhook configurations NAME WEBHOOKS AGE; policies NAME VALIDATIONS PARAMKIND AGE; bindings
// NAME POLICYNAME PARAMREF AGE.
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../../api/admissionregistration/v1/policy.js';
import type { ValidatingWebhookConfiguration } from '../../api/admissionregistration/v1/webhook.js';
import type { TableColumnDefinition } from '../../api/table.js';
import { translateTimestampSince } from '../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../generic/table-convertor.js';
import type { TableConvertor } from '../rest/capabilities.js';

const column = (name: string, type: string, description: string): TableColumnDefinition => ({
  name,
  type,
  format: '',
  description,
  priority: 0,
});

export const webhookConfigurationTableConvertor: TableConvertor =
  tableConvertorFor<ValidatingWebhookConfiguration>({
    columns: [
      nameColumn,
      column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks in this configuration'),
      ageColumn,
    ],
    cells: (c, now) => [
      c.metadata?.name ?? '',
      (c.webhooks ?? []).length,
      translateTimestampSince(c.metadata?.creationTimestamp, now),
    ],
  });

export const policyTableConvertor: TableConvertor = tableConvertorFor<ValidatingAdmissionPolicy>({
  columns: [
    nameColumn,
    column(
      'Validations',
      'integer',
      'Validations indicates the number of validation rules defined in this configuration',
    ),
    column(
      'ParamKind',
      'string',
      'ParamKind specifies the kind of resources used to parameterize this policy',
    ),
    ageColumn,
  ],
  cells: (p, now) => {
    const pk = p.spec?.paramKind;
    return [
      p.metadata?.name ?? '',
      (p.spec?.validations ?? []).length,
      pk === undefined ? '<unset>' : `${pk.apiVersion ?? ''}/${pk.kind ?? ''}`,
      translateTimestampSince(p.metadata?.creationTimestamp, now),
    ];
  },
});

function paramRefCell(b: ValidatingAdmissionPolicyBinding): string {
  const pr = b.spec?.paramRef;
  if (pr === undefined) return '<unset>';
  if ((pr.name ?? '') !== '')
    return `${(pr.namespace ?? '') === '' ? '*' : (pr.namespace ?? '')}/${pr.name ?? ''}`;
  if (pr.selector !== undefined) {
    const labels = Object.entries(pr.selector.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
    const exprs = (pr.selector.matchExpressions ?? []).map(
      (e) => `${e.key} ${e.operator} (${(e.values ?? []).join(',')})`,
    );
    return [...labels, ...exprs].join(',');
  }
  return '<unset>';
}

export const bindingTableConvertor: TableConvertor = tableConvertorFor<ValidatingAdmissionPolicyBinding>({
  columns: [
    nameColumn,
    column(
      'PolicyName',
      'string',
      'PolicyName indicates the policy definition which the policy binding binded to',
    ),
    column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    ageColumn,
  ],
  cells: (b, now) => [
    b.metadata?.name ?? '',
    b.spec?.policyName ?? '',
    paramRefCell(b),
    translateTimestampSince(b.metadata?.creationTimestamp, now),
  ],
});
