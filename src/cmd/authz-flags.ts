// The authorization flags (kube-apiserver's Authorization section, options/authorization.go AddFlags).
// Each legacy flag marks itself given, for --authorization-config's mutual exclusion.
import { flag, type Spec } from './flag-helpers.js';
import { parseDurationFlag, parseListFlag } from './flag-values.js';

const authz = 'Authorization';
export const authzFlags: Spec[] = [
  flag(
    {
      section: authz,
      name: 'authorization-mode',
      kind: 'strings',
      usage:
        'Ordered list of plug-ins to do authorization on secure port. Defaults to AlwaysAllow if --authorization-config is not used. Comma-delimited list of: AlwaysAllow,AlwaysDeny,Webhook,RBAC,Node.',
      def: 'AlwaysAllow',
    },
    (o, v) => {
      o.authorizationModes.push(...parseListFlag(v));
      o.authorization.legacyFlagsSet = true;
    },
  ),
  flag(
    {
      section: authz,
      name: 'authorization-webhook-config-file',
      kind: 'string',
      usage:
        "File with webhook configuration in kubeconfig format, used with --authorization-mode=Webhook. The API server will query the remote service to determine access on the API server's secure port.",
    },
    (o, v) => {
      o.authorization.webhookConfigFile = v;
      o.authorization.legacyFlagsSet = true;
    },
  ),
  flag(
    {
      section: authz,
      name: 'authorization-webhook-version',
      kind: 'string',
      usage:
        'The API version of the authorization.k8s.io SubjectAccessReview to send to and expect from the webhook.',
      def: '"v1beta1"',
    },
    (o, v) => {
      o.authorization.webhookVersion = v;
      o.authorization.legacyFlagsSet = true;
    },
  ),
  flag(
    {
      section: authz,
      name: 'authorization-webhook-cache-authorized-ttl',
      kind: 'duration',
      usage: "The duration to cache 'authorized' responses from the webhook authorizer.",
      def: '5m0s',
    },
    (o, v) => {
      o.authorization.webhookCacheAuthorizedTTLMs = parseDurationFlag(v);
      o.authorization.legacyFlagsSet = true;
    },
  ),
  flag(
    {
      section: authz,
      name: 'authorization-webhook-cache-unauthorized-ttl',
      kind: 'duration',
      usage: "The duration to cache 'unauthorized' responses from the webhook authorizer.",
      def: '30s',
    },
    (o, v) => {
      o.authorization.webhookCacheUnauthorizedTTLMs = parseDurationFlag(v);
      o.authorization.legacyFlagsSet = true;
    },
  ),
  flag(
    {
      section: authz,
      name: 'authorization-config',
      kind: 'string',
      usage:
        'File with Authorization Configuration to configure the authorizer chain. This flag is mutually exclusive with the other --authorization-mode and --authorization-webhook-* flags.',
    },
    (o, v) => (o.authorization.configFile = v),
  ),
];
