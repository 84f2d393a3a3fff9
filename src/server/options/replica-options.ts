// The flags that make several replicas one cluster: where the shared identity lives (--pki-dir,
// Capstan's shorthand for kube's identity flags), how this replica is advertised in the
// `kubernetes` Endpoints (--advertise-address, --endpoint-reconciler-type), and the timings of the
// leader election the once-per-cluster controllers run under (kube-controller-manager's
// --leader-elect-* flags, client-go's defaults).
import { isIP } from 'node:net';
import { join } from 'node:path';

export const endpointReconcilerTypes = ['lease', 'none'] as const;
export type EndpointReconcilerType = (typeof endpointReconcilerTypes)[number];

export interface LeaderElectionTimings {
  /** --leader-elect-lease-duration: how long a holder's lease lasts unrenewed (client-go: 15 s). */
  leaseDurationMs: number;
  /** --leader-elect-renew-deadline: how long a holder keeps trying to renew before it steps down (10 s). */
  renewDeadlineMs: number;
  /** --leader-elect-retry-period: the wait between attempts to acquire or renew (2 s). */
  retryPeriodMs: number;
}

export interface ReplicaOptions {
  /** --pki-dir: a directory `capstan pki` wrote; fills the identity flags not given. */
  pkiDir: string;
  /** --advertise-address: this replica's IP in the `kubernetes` Endpoints ('' the bind address). */
  advertiseAddress: string;
  /** --endpoint-reconciler-type: `lease` (kube's default) or `none`. */
  endpointReconcilerType: EndpointReconcilerType;
  /** --endpoint-reconciler-lease-ttl: how long a stopped replica stays listed (kube's 15 s). */
  masterLeaseTTLMs: number;
  leaderElection: LeaderElectionTimings;
}

export const defaultLeaderElection: Readonly<LeaderElectionTimings> = Object.freeze({
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
});

export function defaultReplicaOptions(): ReplicaOptions {
  return {
    pkiDir: '',
    advertiseAddress: '',
    endpointReconcilerType: 'lease',
    masterLeaseTTLMs: 15_000,
    leaderElection: { ...defaultLeaderElection },
  };
}

export function validateReplicaOptions(r: ReplicaOptions): string[] {
  const errs: string[] = [];
  if (r.advertiseAddress !== '' && isIP(r.advertiseAddress) === 0)
    errs.push(`--advertise-address ${JSON.stringify(r.advertiseAddress)} is not a valid IP address`);
  const { leaseDurationMs: lease, renewDeadlineMs: renew, retryPeriodMs: retry } = r.leaderElection;
  // client-go's NewLeaderElector checks, with its texts.
  if (lease <= renew) errs.push('leaseDuration must be greater than renewDeadline');
  if (renew <= retry * 1.2) errs.push('renewDeadline must be greater than retryPeriod*JitterFactor');
  if (lease < 1000) errs.push('leaseDuration must be at least 1s');
  if (retry < 1) errs.push('retryPeriod must be greater than zero');
  if (r.masterLeaseTTLMs < 1000) errs.push('--endpoint-reconciler-lease-ttl must be at least 1s');
  return errs;
}

/** The files `capstan pki` writes into its directory, by role. */
export function pkiFiles(dir: string): {
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  saKey: string;
  saPub: string;
  adminCert: string;
  adminKey: string;
  adminKubeconfig: string;
} {
  return {
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    servingCert: join(dir, 'apiserver.crt'),
    servingKey: join(dir, 'apiserver.key'),
    saKey: join(dir, 'sa.key'),
    saPub: join(dir, 'sa.pub'),
    adminCert: join(dir, 'admin.crt'),
    adminKey: join(dir, 'admin.key'),
    adminKubeconfig: join(dir, 'admin.kubeconfig'),
  };
}

/** The identity flags filled from --pki-dir where they were not given (flags given win). */
export function withPKIDir<
  O extends {
    tlsCertFile: string;
    tlsPrivateKeyFile: string;
    clientCAFile: string;
    serviceAccountKeyFiles: string[];
    serviceAccountSigningKeyFile: string;
    replicas: ReplicaOptions;
  },
>(o: O): O {
  if (o.replicas.pkiDir === '') return o;
  const f = pkiFiles(o.replicas.pkiDir);
  const serving = o.tlsCertFile === '' ? { tlsCertFile: f.servingCert, tlsPrivateKeyFile: f.servingKey } : {};
  return {
    ...o,
    ...serving,
    clientCAFile: o.clientCAFile === '' ? f.caCert : o.clientCAFile,
    serviceAccountKeyFiles: o.serviceAccountKeyFiles.length === 0 ? [f.saPub] : o.serviceAccountKeyFiles,
    serviceAccountSigningKeyFile:
      o.serviceAccountSigningKeyFile === '' ? f.saKey : o.serviceAccountSigningKeyFile,
  };
}
