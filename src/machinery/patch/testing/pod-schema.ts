// A pod-shaped schema for the patch tests: containers merged by name, ports by containerPort,
// env by name, volumes by name with retainKeys, finalizers a merging primitive list.
import type { Schema } from '../../../api/schema/types.js';
import { arrayOf, int32, mapList, mapOf, str, stringMap, struct } from '../../../api/schema/builders.js';
import type { SchemaResolver } from '../typed/type-node.js';

const defs: Record<string, Schema> = {
  Container: struct('c', {
    name: str(),
    image: str(),
    args: arrayOf(str()),
    ports: arrayOf({ $ref: 'ContainerPort' }, undefined, {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'containerPort',
    }),
    env: mapList({ $ref: 'EnvVar' }, 'name'),
  }),
  ContainerPort: struct('p', {
    containerPort: int32(),
    protocol: str(undefined, { default: 'TCP' }),
    name: str(),
  }),
  EnvVar: struct('e', { name: str(), value: str() }),
  Volume: struct('v', {
    name: str(),
    emptyDir: struct('e', { medium: str() }),
    hostPath: struct('h', { path: str() }),
  }),
  Meta: struct('m', {
    name: str(),
    namespace: str(),
    labels: stringMap(),
    annotations: stringMap(),
    finalizers: arrayOf(str(), undefined, {
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-list-type': 'set',
    }),
    resourceVersion: str(),
  }),
  Pod: struct('pod', {
    apiVersion: str(),
    kind: str(),
    metadata: { $ref: 'Meta' },
    spec: struct('s', {
      containers: mapList({ $ref: 'Container' }, 'name'),
      volumes: arrayOf({ $ref: 'Volume' }, undefined, {
        'x-kubernetes-patch-strategy': 'merge,retainKeys',
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
      }),
      nodeSelector: { ...stringMap(), 'x-kubernetes-map-type': 'atomic' },
      tolerations: arrayOf(struct('t', { key: str() }), undefined, { 'x-kubernetes-list-type': 'atomic' }),
      extra: mapOf(str()),
    }),
  }),
};

export const podResolver: SchemaResolver = {
  resolve(schema: Schema): Schema {
    let s = schema;
    while (s.$ref !== undefined) {
      const next = defs[s.$ref];
      if (next === undefined) throw new Error(`unknown ${s.$ref}`);
      s = next;
    }
    return s;
  },
};

export const podSchema: Schema = { $ref: 'Pod' };
