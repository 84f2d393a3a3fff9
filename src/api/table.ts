// meta.k8s.io/v1 Table, the server-side printing `kubectl get` asks for (as=Table).
import type { KubeObject, ListMeta } from './meta.js';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** metav1.TableRowCondition: a row's state (Completed for a finished pod). */
export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface TableRow {
  cells: unknown[];
  conditions?: TableRowCondition[];
  /** The object (or its PartialObjectMetadata), per includeObject. */
  object?: KubeObject;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}
