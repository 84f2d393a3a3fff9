// Node field selectors (NodeToSelectableFields and the v1 field label conversion): metadata.name
// and spec.unschedulable.
import type { Node } from '../../../api/core/v1/node.js';
import type { TransformFunc } from '../../../machinery/fields/index.js';
import { mergeFieldsSets, objectMetaFieldsSet } from '../../generic/predicate.js';
import type { TriggerFuncs } from '../../generic/rest-options.js';
import type { AttrFunc } from '../../rest/strategy.js';

const nodeFields = ['metadata.name', 'spec.unschedulable'];

export const nodeAttrs: AttrFunc<Node> = (node) => ({
  labels: node.metadata?.labels ?? {},
  fields: mergeFieldsSets(objectMetaFieldsSet(node.metadata, false), {
    'spec.unschedulable': String(node.spec?.unschedulable ?? false),
  }),
});

export const nodeFieldLabelConversion: TransformFunc = (field, value) =>
  nodeFields.includes(field)
    ? { ok: true, field, value }
    : { ok: false, message: `field label not supported: ${field}` };

/** The watch cache's trigger (NodeNameTriggerFunc): a watch of one node sees only that node's events. */
export const nodeTriggerFuncs: TriggerFuncs = {
  'metadata.name': (obj) => (obj as Node).metadata?.name ?? '',
};
