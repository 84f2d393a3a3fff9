// Starts a built-in controller once the server serves and stops it when the server shuts down.
// kube runs these controllers in kube-controller-manager; Capstan runs them in-process, as
// kube-apiserver runs its own controllers from post-start hooks.
import type { PostStartHook } from '../../server/lifecycle/hooks.js';

export interface RunnableController {
  run(): void;
  close(): Promise<void>;
}

export function controllerHook(controller: RunnableController): PostStartHook {
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

/** One hook per controller that exists, by hook name. */
export function controllerHooks(
  controllers: Readonly<Record<string, RunnableController | undefined>>,
): Record<string, PostStartHook> {
  const hooks: Record<string, PostStartHook> = {};
  for (const [name, controller] of Object.entries(controllers))
    if (controller !== undefined) hooks[name] = controllerHook(controller);
  return hooks;
}

export const namespaceControllerHookName = 'start-namespace-controller';
export const serviceAccountsControllerHookName = 'start-serviceaccounts-controller';
export const serviceAccountTokensControllerHookName = 'start-serviceaccount-tokens-controller';
export const rootCACertPublisherHookName = 'start-root-ca-cert-publisher';
