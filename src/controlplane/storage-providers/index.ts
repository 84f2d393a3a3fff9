// The storage providers of the named API groups, in kube's order of /apis. Adding a group: write
// src/controlplane/storage-providers/<group>.ts exporting a RESTStorageProvider (usually
// groupStorageProvider) and list it here.
import type { RESTStorageProvider } from './provider.js';

export const namedGroupProviders: readonly RESTStorageProvider[] = [];
