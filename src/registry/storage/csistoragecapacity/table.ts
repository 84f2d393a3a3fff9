// `kubectl get csistoragecapacities` columns: NAME STORAGECLASSNAME CAPACITY (printCSIStorageCapacity
// in pkg/printers/internalversion/printers.go; no age column).
import type { CSIStorageCapacity } from '../../../api/storage/v1/csi-storage-capacity.js';
import { nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, description: string) =>
  ({ name, type: 'string', format: '', description, priority: 0 }) as const;

export const csiStorageCapacityTableConvertor: TableConvertor = tableConvertorFor<CSIStorageCapacity>({
  columns: [
    nameColumn,
    column(
      'StorageClassName',
      'storageClassName represents the name of the StorageClass that the reported capacity applies to. It must meet the same requirements as the name of a StorageClass object (non-empty, DNS subdomain). If that object no longer exists, the CSIStorageCapacity object is obsolete and should be removed by its creator. This field is immutable.',
    ),
    column(
      'Capacity',
      'capacity is the value reported by the CSI driver in its GetCapacityResponse for a GetCapacityRequest with topology and parameters that match the previous fields.\n\nThe semantic is currently (CSI spec 1.2) defined as: The available capacity, in bytes, of the storage that can be used to provision volumes. If not set, that information is currently unavailable.',
    ),
  ],
  cells: (c) => [c.metadata?.name ?? '', c.storageClassName, c.capacity ?? '<unset>'],
});
