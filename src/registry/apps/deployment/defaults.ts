// The apps/v1 Deployment defaults (SetDefaults_Deployment in pkg/apis/apps/v1/defaults.go) and the
// pod defaults of its template.
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import { setPodTemplateSpecDefaults } from '../../core/podtemplate/defaults.js';

/** Fills the defaults in place: 1 replica, RollingUpdate 25%/25%, history 10, deadline 600s. */
export function setDeploymentDefaults(d: Deployment): void {
  const spec = (d.spec ??= {});
  spec.replicas ??= 1;
  const strategy = (spec.strategy ??= {});
  if ((strategy.type ?? '') === '') strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rolling = (strategy.rollingUpdate ??= {});
    rolling.maxUnavailable ??= '25%';
    rolling.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  setPodTemplateSpecDefaults((spec.template ??= {}));
}
