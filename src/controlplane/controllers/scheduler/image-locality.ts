// ImageLocality (kube-scheduler's plugins/imagelocality/image_locality.go): a node scores the sizes
// of the images of the pod's init containers and containers that it holds, each scaled by the share
// of all nodes holding it (so that an image on a few nodes does not draw every pod to them), summed,
// and placed between 23 MiB and 1000 MiB times the number of those containers as 0–100; the scores
// are not normalized afterwards. A container's image is looked up among the names nodes report in
// status.images by the name the pod gives it, tagged latest when untagged (normalizedImageName); its
// size is what the first node holding that name reports (the scheduler cache keeps the size it saw
// first).
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';

const mb = 1024 * 1024;
const minThreshold = 23 * mb;
const maxContainerThreshold = 1000 * mb;
const maxNodeScore = 100;

/** A node's image names and their sizes; a node changed is another object, so kept by object. */
const namesOfNode = new WeakMap<Node, ReadonlyMap<string, number>>();

function imageNames(node: Node): ReadonlyMap<string, number> {
  let names = namesOfNode.get(node);
  if (names !== undefined) return names;
  const byName = new Map<string, number>();
  for (const image of node.status?.images ?? [])
    for (const name of image.names ?? []) if (!byName.has(name)) byName.set(name, image.sizeBytes ?? 0);
  names = byName;
  namesOfNode.set(node, names);
  return names;
}

/** The name a container's image is looked up by: tagged latest when it has no tag. */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}

/** ImageStateSummary: an image's size, and how many nodes hold it. */
interface ImageState {
  readonly size: number;
  readonly numNodes: number;
}

function imageStates(names: ReadonlySet<string>, all: readonly Node[]): Map<string, ImageState> {
  const states = new Map<string, ImageState>();
  for (const node of all) {
    const held = imageNames(node);
    for (const name of names) {
      const size = held.get(name);
      if (size === undefined) continue;
      const state = states.get(name);
      states.set(name, { size: state?.size ?? size, numNodes: (state?.numNodes ?? 0) + 1 });
    }
  }
  return states;
}

/** calculatePriority: the sum placed between the thresholds, as 0–100 (Go's integer division). */
function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = maxContainerThreshold * numContainers;
  let sum = sumScores;
  if (sum < minThreshold) sum = minThreshold;
  else if (sum > maxThreshold) sum = maxThreshold;
  return Math.trunc((maxNodeScore * (sum - minThreshold)) / (maxThreshold - minThreshold));
}

/** Each of the nodes' scores (`filtered`, in order), with the images held across `all` the nodes. */
export function imageLocalityScores(pod: Pod, filtered: readonly Node[], all: readonly Node[]): number[] {
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const wanted = containers.map((c) => normalizedImageName(c.image ?? ''));
  const states = imageStates(new Set(wanted), all);
  return filtered.map((node) => {
    const held = imageNames(node);
    let sum = 0;
    for (const name of wanted) {
      const state = states.get(name);
      // scaledImageScore: the size times the share of the nodes holding the image, truncated.
      if (state !== undefined && held.has(name))
        sum += Math.trunc(state.size * (state.numNodes / all.length));
    }
    return calculatePriority(sum, containers.length);
  });
}
