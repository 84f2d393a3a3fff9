// The storage providers of the named API groups, in kube's order of /apis. Adding a group: write
// src/controlplane/storage-providers/<group>.ts exporting a RESTStorageProvider (usually
// groupStorageProvider) and list it here.
import { appsStorageProvider } from './apps.js';
import { batchStorageProvider } from './batch.js';
import { coordinationStorageProvider } from './coordination.js';
import { discoveryStorageProvider } from './discovery.js';
import { authenticationStorageProvider } from './authentication.js';
import { authorizationStorageProvider } from './authorization.js';
import { autoscalingStorageProvider } from './autoscaling.js';
import { certificatesStorageProvider } from './certificates.js';
import { networkingStorageProvider } from './networking.js';
import { nodeStorageProvider } from './node.js';
import { policyStorageProvider } from './policy.js';
import { eventsStorageProvider } from './events.js';
import type { RESTStorageProvider } from './provider.js';
import { schedulingStorageProvider } from './scheduling.js';
import { storageStorageProvider } from './storage.js';
import { rbacStorageProvider } from './rbac.js';
import { admissionregistrationStorageProvider } from './admissionregistration.js';
import { apiextensionsStorageProvider } from './apiextensions.js';
import { flowcontrolStorageProvider } from './flowcontrol.js';
import { apiregistrationStorageProvider } from './apiregistration.js';

export const namedGroupProviders: readonly RESTStorageProvider[] = [
  eventsStorageProvider,
  appsStorageProvider,
  rbacStorageProvider,
  authenticationStorageProvider,
  authorizationStorageProvider,
  autoscalingStorageProvider,
  batchStorageProvider,
  certificatesStorageProvider,
  networkingStorageProvider,
  policyStorageProvider,
  storageStorageProvider,
  schedulingStorageProvider,
  coordinationStorageProvider,
  nodeStorageProvider,
  discoveryStorageProvider,
  admissionregistrationStorageProvider,
  apiextensionsStorageProvider,
  flowcontrolStorageProvider,
  apiregistrationStorageProvider,
];
