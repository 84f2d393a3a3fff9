// The flags of several replicas serving one cluster: kube-apiserver's --advertise-address and
// --endpoint-reconciler-type, kube-controller-manager's --leader-elect-* timings (the once-per-cluster
// controllers run in the server), and Capstan's --pki-dir and --endpoint-reconciler-lease-ttl.
import { formatGoDuration } from '../machinery/time/go-duration.js';
import { endpointReconcilerTypes } from '../server/options/replica-options.js';
import { flag, oneOf, type Spec } from './flag-helpers.js';
import { parseDurationFlag } from './flag-values.js';

const section = 'Replicas';
const duration = (ms: number): string => formatGoDuration(ms);

export const replicaFlags: Spec[] = [
  flag(
    {
      section,
      name: 'pki-dir',
      kind: 'string',
      usage:
        "A directory written by 'capstan pki': its CA, serving certificate and service account key pair fill --tls-cert-file, --tls-private-key-file, --client-ca-file, --service-account-key-file and --service-account-signing-key-file where those are not given. Point every replica of a cluster at the same one.",
    },
    (o, v) => (o.replicas.pkiDir = v),
  ),
  flag(
    {
      section,
      name: 'advertise-address',
      kind: 'string',
      usage:
        'The IP address on which to advertise the apiserver to members of the cluster (the kubernetes Service endpoints). If blank, the --bind-address will be used, or 127.0.0.1 when that is unspecified.',
    },
    (o, v) => (o.replicas.advertiseAddress = v),
  ),
  flag(
    {
      section,
      name: 'endpoint-reconciler-type',
      kind: 'string',
      usage: `Use an endpoint reconciler (${endpointReconcilerTypes.join(', ')}).`,
      def: 'lease',
    },
    (o, v) => (o.replicas.endpointReconcilerType = oneOf(endpointReconcilerTypes, v)),
  ),
  flag(
    {
      section,
      name: 'endpoint-reconciler-lease-ttl',
      kind: 'duration',
      usage:
        "How long a replica's lease under /registry/masterleases/ lasts unrenewed: a stopped replica leaves the kubernetes endpoints after it.",
      def: duration(15_000),
    },
    (o, v) => (o.replicas.masterLeaseTTLMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section,
      name: 'leader-elect-lease-duration',
      kind: 'duration',
      usage:
        'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of the once-per-cluster controllers.',
      def: duration(15_000),
    },
    (o, v) => (o.replicas.leaderElection.leaseDurationMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section,
      name: 'leader-elect-renew-deadline',
      kind: 'duration',
      usage:
        'The interval between attempts by the acting leader to renew a leadership slot before it stops leading. This must be less than the lease duration.',
      def: duration(10_000),
    },
    (o, v) => (o.replicas.leaderElection.renewDeadlineMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section,
      name: 'leader-elect-retry-period',
      kind: 'duration',
      usage:
        'The duration the clients should wait between attempting acquisition and renewal of a leadership.',
      def: duration(2_000),
    },
    (o, v) => (o.replicas.leaderElection.retryPeriodMs = parseDurationFlag(v)),
  ),
];
