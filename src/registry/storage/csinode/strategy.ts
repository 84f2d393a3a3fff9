// CSINode policy (pkg/registry/storage/csinode/strategy.go) and validation (ValidateCSINode in
// pkg/apis/storage/validation): driver names are unique, each driver names its node.
import type { CSINode } from '../../../api/storage/v1/csi-node.js';
import {
  FieldError,
  FieldPath,
  isDNS1123Subdomain,
  type ErrorList,
  validateObjectMeta,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/index.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';

/** ValidateCSINode: the spec (metadata with DNS-subdomain names, then the fields). */
export function validateCSINode(node: CSINode): ErrorList {
  return [
    ...validateObjectMeta(node.metadata ?? {}, {
      requiresNamespace: false,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateCSINodeFields(node),
  ];
}

function validateCSINodeFields(node: CSINode): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  const path = FieldPath.of('spec', 'drivers');
  node.spec.drivers.forEach((d, i) => {
    const p = path.index(i);
    if (d.name === '') errs.push(FieldError.required(p.child('name'), ''));
    else
      errs.push(
        ...isDNS1123Subdomain(d.name.toLowerCase()).map((m) =>
          FieldError.invalid(p.child('name'), d.name, m),
        ),
      );
    if (seen.has(d.name)) errs.push(FieldError.duplicate(p.child('name'), d.name));
    seen.add(d.name);
    if (d.nodeID === '') errs.push(FieldError.required(p.child('nodeID'), ''));
    else if (d.nodeID.length > 192) errs.push(FieldError.tooLong(p.child('nodeID'), 192));
    const count = d.allocatable?.count;
    if (count !== undefined && count < 0) {
      errs.push(
        FieldError.invalid(p.child('allocatable', 'count'), count, 'must be greater than or equal to 0'),
      );
    }
  });
  return errs;
}

// A body without a spec (or drivers) means no drivers; the decoder fills this in for clients.
function ensureSpec(node: CSINode): void {
  const spec = (node.spec as Partial<CSINode['spec']> | undefined) ?? {};
  spec.drivers ??= [];
  node.spec = spec as CSINode['spec'];
}

export const csiNodeStrategy = {
  namespaceScoped: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: (_ctx, node) => {
    ensureSpec(node);
  },
  validate: (_ctx, node) => validateCSINode(node),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, node) => {
    ensureSpec(node);
  },
  validateUpdate: (_ctx, node) => validateCSINode(node),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<CSINode> & UpdateStrategy<CSINode>;

export const csiNodeDeleteStrategy = {} satisfies DeleteStrategy<CSINode>;
