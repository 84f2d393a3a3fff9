import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ManagedFieldsEntry } from '../../api/meta.js';
import { fieldElement } from './fieldpath/path-element.js';
import {
  parentManagedFields,
  replicasPathOf,
  scaleManagedFields,
  type ReplicasPaths,
} from './scale-managed-fields.js';

const replicas = { 'f:spec': { 'f:replicas': {} } };
const paths: ReplicasPaths = new Map([['apps/v1', [fieldElement('spec'), fieldElement('replicas')]]]);
const t1 = '2026-01-01T00:00:00Z';

const update = (
  manager: string,
  fieldsV1: Record<string, unknown>,
  extra: Partial<ManagedFieldsEntry> = {},
) =>
  ({
    manager,
    operation: 'Update',
    apiVersion: 'apps/v1',
    time: t1,
    fieldsType: 'FieldsV1',
    fieldsV1,
    ...extra,
  }) satisfies ManagedFieldsEntry;

describe('scaleManagedFields (ToSubresource)', () => {
  it("shows the owners of the parent's replicas as owners of the Scale's spec.replicas", () => {
    const parent = [
      update('creator', { 'f:spec': { 'f:replicas': {}, 'f:paused': {} } }),
      update('other', { 'f:spec': { 'f:paused': {} } }),
      { ...update('old', replicas), apiVersion: 'extensions/v1beta1' },
    ];
    assert.deepEqual(scaleManagedFields(parent, paths), [
      { ...update('creator', replicas), apiVersion: 'autoscaling/v1' },
    ]);
  });

  it('gives none when nobody owns the replicas', () => {
    assert.equal(scaleManagedFields(undefined, paths), undefined);
    assert.equal(
      scaleManagedFields([update('other', { 'f:metadata': { 'f:labels': {} } })], paths),
      undefined,
    );
  });
});

describe('parentManagedFields (ToParent)', () => {
  const target = { apiVersion: 'apps/v1', paths };

  it('takes the field from a manager the write took it from, dropping an entry left empty', () => {
    const parent = [
      update('creator', { 'f:spec': { 'f:replicas': {}, 'f:paused': {} } }),
      update('patcher', replicas),
    ];
    const scale = [
      update('kubectl', replicas, {
        apiVersion: 'autoscaling/v1',
        subresource: 'scale',
        time: '2026-02-02T00:00:00Z',
      }),
    ];
    assert.deepEqual(parentManagedFields(parent, scale, target), [
      // A new owner's entry has no time: its identifier (autoscaling/v1) matches no parent entry.
      {
        manager: 'kubectl',
        operation: 'Update',
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
        fieldsV1: replicas,
        subresource: 'scale',
      },
      update('creator', { 'f:spec': { 'f:paused': {} } }),
    ]);
  });

  it('keeps an applier that still owns the field, and entries without it as they are', () => {
    const applier = { ...update('applier', replicas), operation: 'Apply' as const };
    delete (applier as ManagedFieldsEntry).time;
    const parent = [applier, update('labeler', { 'f:metadata': { 'f:labels': {} } })];
    const scale = [{ ...applier, apiVersion: 'autoscaling/v1' }];
    assert.deepEqual(parentManagedFields(parent, scale, target), [applier, parent[1]]);
  });

  it('drops entries of a version without a mapping, as kube does', () => {
    const parent = [{ ...update('old', { 'f:spec': { 'f:paused': {} } }), apiVersion: 'apps/v1beta2' }];
    assert.equal(parentManagedFields(parent, undefined, target), undefined);
  });

  it("keeps a custom resource's entries of a version without a scale subresource", () => {
    const crPaths: ReplicasPaths = new Map([
      ['example.com/v1', replicasPathOf('.spec.size.count')],
      ['example.com/v2', null],
    ]);
    const v2 = {
      ...update('v2writer', { 'f:spec': { 'f:size': { 'f:count': {} } } }),
      apiVersion: 'example.com/v2',
    };
    const v1 = {
      ...update('v1writer', { 'f:spec': { 'f:size': { 'f:count': {} } } }),
      apiVersion: 'example.com/v1',
    };
    assert.deepEqual(scaleManagedFields([v1, v2], crPaths), [
      { ...update('v1writer', replicas), apiVersion: 'autoscaling/v1' },
    ]);
    const scale = [update('hpa', replicas, { apiVersion: 'autoscaling/v1', subresource: 'scale' })];
    const out = parentManagedFields([v1, v2], scale, { apiVersion: 'example.com/v1', paths: crPaths });
    assert.deepEqual(
      out?.map((e) => [e.manager, e.apiVersion, JSON.stringify(e.fieldsV1)]),
      [
        ['hpa', 'example.com/v1', JSON.stringify({ 'f:spec': { 'f:size': { 'f:count': {} } } })],
        ['v2writer', 'example.com/v2', JSON.stringify(v2.fieldsV1)],
      ],
    );
  });
});
