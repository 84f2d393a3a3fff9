// StorageError as k8s.io/apiserver/pkg/storage/errors.go: a code, the key, and the revision involved.

export const storageErrorCodes = [
  'KeyNotFound',
  'KeyExists',
  'ResourceVersionConflicts',
  'InvalidObj',
  'Unreachable',
  'InvalidError',
  'CorruptObj',
  'InternalError',
] as const;
export type StorageErrorCode = (typeof storageErrorCodes)[number];

/** Kube's numeric codes and the words its Error() prints for them. */
const codeInfo: Record<StorageErrorCode, { num: number; text: string }> = {
  KeyNotFound: { num: 1, text: 'key not found' },
  KeyExists: { num: 2, text: 'key exists' },
  ResourceVersionConflicts: { num: 3, text: 'resource version conflicts' },
  InvalidObj: { num: 4, text: 'invalid object' },
  Unreachable: { num: 5, text: 'server unreachable' },
  InvalidError: { num: 6, text: 'invalid error' },
  CorruptObj: { num: 7, text: 'corrupt object' },
  // kube's storage.InternalError is its own type whose text is only the reason.
  InternalError: { num: 8, text: 'internal error' },
};

export class StorageError extends Error {
  readonly code: StorageErrorCode;
  readonly key: string;
  readonly resourceVersion: number;
  readonly additionalErrorMsg: string;

  constructor(init: { code: StorageErrorCode; key: string; resourceVersion?: number; message?: string }) {
    const info = codeInfo[init.code];
    const rv = init.resourceVersion ?? 0;
    const extra = init.message ?? '';
    // kube's InvalidError prints only its field errors; the others print the StorageError form.
    super(
      init.code === 'InvalidError' || init.code === 'InternalError'
        ? extra
        : `StorageError: ${info.text}, Code: ${info.num}, Key: ${init.key}, ResourceVersion: ${rv}, AdditionalErrorMsg: ${extra}`,
    );
    this.name = 'StorageError';
    this.code = init.code;
    this.key = init.key;
    this.resourceVersion = rv;
    this.additionalErrorMsg = extra;
  }
}

export const keyNotFound = (key: string, rv = 0): StorageError =>
  new StorageError({ code: 'KeyNotFound', key, resourceVersion: rv });
export const keyExists = (key: string, rv = 0): StorageError =>
  new StorageError({ code: 'KeyExists', key, resourceVersion: rv });
export const resourceVersionConflicts = (key: string, rv = 0): StorageError =>
  new StorageError({ code: 'ResourceVersionConflicts', key, resourceVersion: rv });
export const invalidObj = (key: string, message: string): StorageError =>
  new StorageError({ code: 'InvalidObj', key, message });
export const unreachable = (key: string, message: string): StorageError =>
  new StorageError({ code: 'Unreachable', key, message });
/** storage.NewInternalError: a value that cannot be transformed (decrypted) is reported by its reason. */
export const internalError = (key: string, message: string): StorageError =>
  new StorageError({ code: 'InternalError', key, message });
export const corruptObj = (key: string, message: string): StorageError =>
  new StorageError({ code: 'CorruptObj', key, message });

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}
