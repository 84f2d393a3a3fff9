// The images each simulated node holds (kubelet's image manager over its runtime's image list): an
// image is on a node once a container of it has run there, and stays (a simulated node never runs
// short of disk, so kubelet's image GC would keep it). What a node held before a restart is read
// back from its status. Its status.images is what kubelet's nodestatus.Images setter writes: the
// largest first (ties by image ID, descending, as sliceutils.ByImageSize; an image's ID here is its
// fully qualified name), at most nodeStatusMaxImages (50), each with at most
// MaxNamesPerImageInNodeStatus (5) names: the fully qualified name (the runtime's repo tag), then
// each reference pods ran it by, tagged latest when untagged (what kube-scheduler's ImageLocality
// looks a container's image up by).
import type { Node, NodeStatus } from '../../../api/core/v1/node.js';
import { normalizedImageReference, simulatedImageSize, taggedReference } from './image-reference.js';

export type ContainerImage = NonNullable<NodeStatus['images']>[number];

const nodeStatusMaxImages = 50;
const maxNamesPerImageInNodeStatus = 5;

interface HeldImage {
  readonly id: string;
  readonly names: string[];
  readonly sizeBytes: number;
}

export class NodeImages {
  /** By node name, then by image ID. */
  readonly #byNode = new Map<string, Map<string, HeldImage>>();
  readonly #handlers: ((node: string) => void)[] = [];

  /** Calls `handler` with a node's name when an image, or a name of one, is new on it. */
  onChange(handler: (node: string) => void): void {
    this.#handlers.push(handler);
  }

  /** Containers of these image references ran on the node. */
  pulled(node: Node, references: readonly string[]): void {
    const held = this.#held(node);
    let changed = false;
    for (const reference of references) {
      if (reference === '') continue;
      const id = normalizedImageReference(reference);
      let image = held.get(id);
      if (image === undefined) {
        image = { id, names: [id], sizeBytes: simulatedImageSize(id) };
        held.set(id, image);
        changed = true;
      }
      const name = taggedReference(reference);
      if (!image.names.includes(name)) {
        image.names.push(name);
        changed = true;
      }
    }
    if (!changed) return;
    const name = node.metadata?.name ?? '';
    for (const handler of this.#handlers) handler(name);
  }

  /** Whether the node holds the image the reference names. */
  holds(node: Node, reference: string): boolean {
    return this.#held(node).has(normalizedImageReference(reference));
  }

  /** The node's status.images. */
  statusImages(node: Node): ContainerImage[] {
    const images = [...this.#held(node).values()].sort((a, b) =>
      a.sizeBytes !== b.sizeBytes ? b.sizeBytes - a.sizeBytes : a.id < b.id ? 1 : a.id > b.id ? -1 : 0,
    );
    return images.slice(0, nodeStatusMaxImages).map((image) => ({
      names: image.names.slice(0, maxNamesPerImageInNodeStatus),
      sizeBytes: image.sizeBytes,
    }));
  }

  /** The node's images, first read from its status (what it held before this server started). */
  #held(node: Node): Map<string, HeldImage> {
    const name = node.metadata?.name ?? '';
    let held = this.#byNode.get(name);
    if (held !== undefined) return held;
    held = new Map();
    for (const reported of node.status?.images ?? []) {
      const [first, ...rest] = reported.names ?? [];
      if (first === undefined) continue;
      const id = normalizedImageReference(first);
      const image = held.get(id) ?? { id, names: [], sizeBytes: reported.sizeBytes ?? 0 };
      for (const n of [first, ...rest]) if (!image.names.includes(n)) image.names.push(n);
      held.set(id, image);
    }
    this.#byNode.set(name, held);
    return held;
  }
}
