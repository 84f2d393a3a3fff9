// The field manager of a route and the manager name of a request, for the write handlers.
import { header } from '../http-types.js';
import type { HandlerRequest, RequestScope } from '../handlers/request-scope.js';
import type { FieldManager } from './field-manager.js';
import { managerOrUserAgent } from './field-managers.js';

export function fieldManagerFor(scope: RequestScope): FieldManager | undefined {
  return scope.config.fieldManagers?.forKind(scope.kind, scope.subresource);
}

export function requestManager(hr: HandlerRequest, options: { fieldManager?: string }): string {
  return managerOrUserAgent(options.fieldManager, header(hr.ex.req, 'user-agent'));
}
