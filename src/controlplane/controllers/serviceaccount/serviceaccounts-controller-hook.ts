// Starts the service accounts controller once the server serves (kube runs it in
// kube-controller-manager) and stops it when the server shuts down.
import type { PostStartHook } from '../../../server/lifecycle/hooks.js';
import type { ServiceAccountsController } from './serviceaccounts-controller.js';

export const serviceAccountsControllerHookName = 'start-serviceaccounts-controller';

export function serviceAccountsControllerHook(controller: ServiceAccountsController): PostStartHook {
  return (ctx) => {
    ctx.signal.addEventListener(
      'abort',
      () => {
        void controller.close();
      },
      { once: true },
    );
    controller.run();
    return Promise.resolve();
  };
}
