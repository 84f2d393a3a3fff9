// `kubectl get controllerrevisions` columns: NAME CONTROLLER REVISION AGE (printControllerRevision
// in pkg/printers/internalversion/printers.go).
import type { ControllerRevision } from '../../../api/apps/v1/controller-revision.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';
import { column } from '../workload/table-cells.js';

/** formatResourceName with kind: `<kind>.<group>/<name>` in lower case, `<none>` without a controller. */
function controllerName(rev: ControllerRevision): string {
  const ref = (rev.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  if (ref === undefined) return '<none>';
  const slash = ref.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
  if (ref.kind === '' && group === '') return ref.name;
  return `${(group === '' ? ref.kind : `${ref.kind}.${group}`).toLowerCase()}/${ref.name}`;
}

export const controllerRevisionTableConvertor: TableConvertor = tableConvertorFor<ControllerRevision>({
  columns: [
    nameColumn,
    column('Controller', 'string', 'Controller of the object'),
    column('Revision', 'number', 'Revision indicates the revision of the state represented by Data.'),
    ageColumn,
  ],
  cells: (rev, now) => [
    rev.metadata?.name ?? '',
    controllerName(rev),
    rev.revision,
    translateTimestampSince(rev.metadata?.creationTimestamp, now),
  ],
});
