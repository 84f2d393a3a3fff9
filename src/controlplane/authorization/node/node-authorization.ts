// --authorization-mode Node for the API assembly (pkg/kubeapiserver/authorizer/config.go's ModeNode
// case): one graph, the authorizer that reads it, and the list-watches that keep it, started once the
// groups exist.
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import type { Logger } from '../../../server/logging/logger.js';
import { Graph } from './graph.js';
import { startGraphPopulator } from './graph-populator.js';
import { NodeAuthorizer } from './node-authorizer.js';
import { nodeRules } from './node-rules.js';

export class NodeAuthorization {
  readonly graph = new Graph();
  readonly authorizer = new NodeAuthorizer({ graph: this.graph, rules: nodeRules() });
  readonly #logger: Logger;
  #stop: (() => Promise<void>) | undefined;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  start(groups: readonly APIGroupInfo[]): void {
    this.#stop ??= startGraphPopulator(this.graph, groups, this.#logger);
  }

  async close(): Promise<void> {
    await this.#stop?.();
  }
}
