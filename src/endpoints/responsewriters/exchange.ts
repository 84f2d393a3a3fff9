// One request and its response as the handlers see them: parsed query, warnings to send, and
// where unexpected errors are reported.
import type { ApiRequest, ApiResponse } from '../http-types.js';
import type { RequestURL } from '../request/request-url.js';
import type { WarningRecorder } from './warnings.js';

export interface Exchange {
  readonly req: ApiRequest;
  readonly res: ApiResponse;
  readonly url: RequestURL;
  readonly warnings: WarningRecorder;
  /** Receives errors that are not Status errors, with their stacks. */
  readonly logError: (message: string, err: unknown) => void;
}
