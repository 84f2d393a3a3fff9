// authentication.k8s.io/v1 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { selfSubjectReviewModule } from './self-subject-review.js';
import { tokenRequestModule } from './token-request.js';
import { tokenReviewModule } from './token-review.js';

export const authenticationV1Modules: readonly APIModule[] = [
  tokenRequestModule,
  selfSubjectReviewModule,
  tokenReviewModule,
];
