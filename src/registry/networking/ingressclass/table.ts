// `kubectl get ingressclasses` columns: NAME CONTROLLER PARAMETERS AGE (printIngressClass in
// pkg/printers/internalversion/printers.go).
import type { IngressClass } from '../../../api/networking/v1/ingress-class.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, description: string) =>
  ({ name, type: 'string', format: '', description, priority: 0 }) as const;

/** `<kind>[.<apiGroup>]/<name>`, `<none>` without parameters. */
function parameters(ic: IngressClass): string {
  const p = ic.spec?.parameters;
  if (p === undefined) return '<none>';
  return `${p.kind}${p.apiGroup === undefined ? '' : `.${p.apiGroup}`}/${p.name}`;
}

export const ingressClassTableConvertor: TableConvertor = tableConvertorFor<IngressClass>({
  columns: [
    nameColumn,
    column('Controller', 'The controller that implements the class.'),
    column('Parameters', 'The object holding the configuration of the controller.'),
    ageColumn,
  ],
  cells: (ic, now) => [
    ic.metadata?.name ?? '',
    ic.spec?.controller ?? '',
    parameters(ic),
    translateTimestampSince(ic.metadata?.creationTimestamp, now),
  ],
});
