// certificates.k8s.io/v1 kinds.
import type { APIModule } from '../../schema/api-module.js';
import { certificateSigningRequestModule } from './certificate-signing-request.js';

export const certificatesV1Modules: readonly APIModule[] = [certificateSigningRequestModule];
