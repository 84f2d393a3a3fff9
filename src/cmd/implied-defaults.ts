// Defaults that follow from other flags, so that a kube-apiserver command line (kubeadm's, envtest's)
// means on Capstan what it means on kube-apiserver, whose only backend is etcd and which writes
// nothing outside --cert-dir.
import type { ServerRunOptions } from '../server/options/server-run-options.js';

export function applyImpliedDefaults(o: ServerRunOptions, given: ReadonlySet<string>): void {
  // Naming etcd servers without a backend asks for etcd, not Capstan's embedded SQLite.
  if (given.has('etcd-servers') && !given.has('storage-backend')) o.storage.backend = 'etcd3';
  // Without --data-dir, the files Capstan makes (its CA, admin token, kubeconfig) go to --cert-dir.
  if (given.has('cert-dir') && !given.has('data-dir') && o.certDirectory !== '')
    o.storage.dataDir = o.certDirectory;
}
