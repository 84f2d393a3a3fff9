// DaemonSet policy (pkg/registry/apps/daemonset/strategy.go): create resets the status and starts
// the template generation at 1; a template change bumps it (kept in apps/v1 as the
// `deprecated.daemonset.template.generation` annotation, as kube's conversion writes it); /status
// keeps spec and labels.
import type { DaemonSet, DaemonSetStatus } from '../../../api/apps/v1/daemon-set.js';
import { jsonEqual } from '../../generic/object-meta.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import {
  setDaemonSetDefaults,
  validateDaemonSet,
  validateDaemonSetStatusUpdate,
  validateDaemonSetUpdate,
} from './validation.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { warningsForPodTemplate } from '../../core/pod/warnings.js';

export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

const emptyStatus = (): DaemonSetStatus => ({
  currentNumberScheduled: 0,
  numberMisscheduled: 0,
  desiredNumberScheduled: 0,
  numberReady: 0,
});

function setTemplateGeneration(ds: DaemonSet, generation: number): void {
  const meta = (ds.metadata ??= {});
  meta.annotations = { ...meta.annotations, [templateGenerationAnnotation]: String(generation) };
}

function templateGenerationOf(ds: DaemonSet): number {
  const n = Number.parseInt(ds.metadata?.annotations?.[templateGenerationAnnotation] ?? '0', 10);
  return Number.isNaN(n) ? 0 : n;
}

const templatePath = FieldPath.of('spec', 'template');

export const daemonSetStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setDaemonSetDefaults,
  prepareForCreate: (_ctx, ds) => {
    setDaemonSetDefaults(ds);
    ds.status = emptyStatus();
    setTemplateGeneration(ds, 1);
  },
  validate: (_ctx, ds) => validateDaemonSet(ds),
  warningsOnCreate: (_ctx, ds) => warningsForPodTemplate(templatePath, ds.spec?.template),
  prepareForUpdate: (_ctx, ds, old) => {
    setDaemonSetDefaults(ds);
    ds.status = old.status ?? emptyStatus();
    const changed = !jsonEqual(ds.spec?.template ?? {}, old.spec?.template ?? {});
    setTemplateGeneration(ds, templateGenerationOf(old) + (changed ? 1 : 0));
  },
  validateUpdate: (_ctx, ds, old) => validateDaemonSetUpdate(ds, old),
  // The template generation, not metadata.generation, says whether the template changed.
  warningsOnUpdate: (_ctx, ds, old) =>
    templateGenerationOf(ds) !== templateGenerationOf(old)
      ? warningsForPodTemplate(templatePath, ds.spec?.template)
      : [],
} satisfies CreateStrategy<DaemonSet> & UpdateStrategy<DaemonSet>;

export const daemonSetStatusStrategy = {
  ...daemonSetStrategy,
  prepareForUpdate: (_ctx, ds, old) => {
    ds.spec = old.spec ?? {};
    const meta = (ds.metadata ??= {});
    if (old.metadata?.labels !== undefined) meta.labels = old.metadata.labels;
    else delete meta.labels;
    setTemplateGeneration(ds, templateGenerationOf(old));
  },
  validateUpdate: (_ctx, ds, old) => validateDaemonSetStatusUpdate(ds, old),
  warningsOnUpdate: () => [],
} satisfies UpdateStrategy<DaemonSet>;

export const daemonSetDeleteStrategy = {} satisfies DeleteStrategy<DaemonSet>;
