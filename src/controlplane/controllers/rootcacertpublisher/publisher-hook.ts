// Starts the root CA certificate publisher once the server serves (kube runs it in
// kube-controller-manager) and stops it when the server shuts down.
import type { PostStartHook } from '../../../server/lifecycle/hooks.js';
import type { RootCACertPublisher } from './publisher.js';

export const rootCACertPublisherHookName = 'start-root-ca-cert-publisher';

export function rootCACertPublisherHook(publisher: RootCACertPublisher): PostStartHook {
  return (ctx) => {
    ctx.signal.addEventListener(
      'abort',
      () => {
        void publisher.close();
      },
      { once: true },
    );
    publisher.run();
    return Promise.resolve();
  };
}
