// Starts the namespace controller once the server serves (kube runs it in kube-controller-manager;
// we run it in-process, as kube-apiserver runs its own controllers from post-start hooks) and stops
// it when the server shuts down.
import type { PostStartHook } from '../../../server/lifecycle/hooks.js';
import type { NamespaceController } from './namespace-controller.js';

export const namespaceControllerHookName = 'start-namespace-controller';

export function namespaceControllerHook(controller: NamespaceController): PostStartHook {
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
