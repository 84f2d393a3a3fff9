// admissionregistration.k8s.io (pkg/registry/admissionregistration/rest/storage_apiserver.go): v1
// validating and mutating webhook configurations, validating admission policies (+status) and
// their bindings. Stored and validated; no admission plugin calls them yet.
import {
  newMutatingWebhookConfigurationREST,
  newValidatingAdmissionPolicyBindingREST,
  newValidatingAdmissionPolicyREST,
  newValidatingWebhookConfigurationREST,
} from '../../registry/admissionregistration/storage.js';
import { groupStorageProvider } from './provider.js';

export const admissionregistrationStorageProvider = groupStorageProvider(
  'admissionregistration.k8s.io',
  () => ({
    group: 'admissionregistration.k8s.io',
    versions: [
      {
        version: 'v1',
        resources: {
          validatingwebhookconfigurations: async (opts) => ({
            validatingwebhookconfigurations: await newValidatingWebhookConfigurationREST(opts),
          }),
          mutatingwebhookconfigurations: async (opts) => ({
            mutatingwebhookconfigurations: await newMutatingWebhookConfigurationREST(opts),
          }),
          validatingadmissionpolicies: async (opts) => {
            const policy = await newValidatingAdmissionPolicyREST(opts);
            return {
              validatingadmissionpolicies: policy.policies,
              'validatingadmissionpolicies/status': policy.status,
            };
          },
          validatingadmissionpolicybindings: async (opts) => ({
            validatingadmissionpolicybindings: await newValidatingAdmissionPolicyBindingREST(opts),
          }),
        },
      },
    ],
  }),
);
