// The allocators' errors, worded as pkg/registry/core/service/ipallocator and portallocator word
// them; the service REST wraps them in Status errors.
export const allocationErrorCodes = ['full', 'allocated', 'notInRange'] as const;
export type AllocationErrorCode = (typeof allocationErrorCodes)[number];

export class AllocationError extends Error {
  readonly code: AllocationErrorCode;
  constructor(code: AllocationErrorCode, message: string) {
    super(message);
    this.name = 'AllocationError';
    this.code = code;
  }
}

export function isAllocationError(err: unknown): err is AllocationError {
  return err instanceof AllocationError;
}

/** ErrFull, shared by both allocators. */
export const rangeFull = (): AllocationError => new AllocationError('full', 'range is full');

export const ipAllocated = (): AllocationError =>
  new AllocationError('allocated', 'provided IP is already allocated');

export const ipNotInRange = (ip: string, validRange: string): AllocationError =>
  new AllocationError(
    'notInRange',
    `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${validRange}`,
  );

export const portAllocated = (): AllocationError =>
  new AllocationError('allocated', 'provided port is already allocated');

export const portNotInRange = (validPorts: string): AllocationError =>
  new AllocationError(
    'notInRange',
    `provided port is not in the valid range. The range of valid ports is ${validPorts}`,
  );
