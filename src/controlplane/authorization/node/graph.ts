// The Node authorizer's graph (plugin/pkg/auth/authorizer/node/graph.go): a vertex per object a
// node may reach, edges pointing toward the nodes (pod → node, secret/configmap/pvc/serviceaccount/
// resourceclaim → pod, pv → pvc, secret → pv, volumeattachment → node). An edge that leads to exactly
// one node carries that node's name (kube's destinationEdge), so a walk never wanders into another
// node's objects, and a vertex whose edges all carry one (the authoritative kinds) answers from its
// count of destinations without a walk.

export const vertexTypes = [
  'configmap',
  'resourceslice',
  'node',
  'pod',
  'pvc',
  'pv',
  'resourceclaim',
  'secret',
  'volumeattachment',
  'serviceAccount',
] as const;
export type VertexType = (typeof vertexTypes)[number];

/** vertexTypeWithAuthoritativeIndex: every edge out of these kinds names its node. */
const authoritative: Readonly<Record<VertexType, boolean>> = {
  configmap: true,
  resourceslice: true,
  node: false,
  pod: true,
  pvc: true,
  pv: false,
  resourceclaim: true,
  secret: false,
  volumeattachment: true,
  serviceAccount: true,
};

class Vertex {
  readonly type: VertexType;
  readonly namespace: string;
  readonly name: string;
  /** Edges out: the vertex pointed to, and the node the edge leads to when it leads to one. */
  readonly out = new Map<Vertex, string | undefined>();
  readonly in = new Set<Vertex>();
  /** How many edges out lead to each node. */
  readonly destinations = new Map<string, number>();

  constructor(type: VertexType, namespace: string, name: string) {
    this.type = type;
    this.namespace = namespace;
    this.name = name;
  }

  get degree(): number {
    return this.out.size + this.in.size;
  }
}

const keyOf = (type: VertexType, namespace: string, name: string): string =>
  `${type}\u0000${namespace}\u0000${name}`;

/** Why a path was not found, for the log (kube logs hasPathFrom's error and answers a fixed reason). */
export type PathResult = { readonly ok: true } | { readonly ok: false; readonly why: string };

export class Graph {
  readonly #vertices = new Map<string, Vertex>();

  /** How many vertices the graph holds (for tests). */
  get size(): number {
    return this.#vertices.size;
  }

  has(type: VertexType, namespace: string, name: string): boolean {
    return this.#vertices.has(keyOf(type, namespace, name));
  }

  /**
   * AddPod, for a pod bound to a node: pod → node, and (unless it is a mirror pod, which may reach
   * nothing) its service account, secrets, config maps, claims and resource claims → pod.
   */
  addPod(pod: {
    readonly namespace: string;
    readonly name: string;
    readonly nodeName: string;
    readonly mirror: boolean;
    readonly serviceAccountName: string;
    readonly secrets: readonly string[];
    readonly configMaps: readonly string[];
    readonly claims: readonly string[];
    readonly resourceClaims: readonly string[];
  }): void {
    this.deleteVertex('pod', pod.namespace, pod.name);
    const podVertex = this.#getOrCreate('pod', pod.namespace, pod.name);
    const nodeVertex = this.#getOrCreate('node', '', pod.nodeName);
    this.#addEdge(podVertex, nodeVertex, pod.nodeName);
    if (pod.mirror) return;
    const from = (type: VertexType, names: readonly string[]): void => {
      for (const name of names)
        this.#addEdge(this.#getOrCreate(type, pod.namespace, name), podVertex, pod.nodeName);
    };
    if (pod.serviceAccountName !== '') from('serviceAccount', [pod.serviceAccountName]);
    from('secret', pod.secrets);
    from('configmap', pod.configMaps);
    from('pvc', pod.claims);
    from('resourceclaim', pod.resourceClaims);
  }

  deletePod(namespace: string, name: string): void {
    this.deleteVertex('pod', namespace, name);
  }

  /** AddPV: pv → its claim, and the kubelet-visible secrets → pv; a PV without a claim has no edges. */
  addPV(pv: {
    readonly name: string;
    readonly claim?: { readonly namespace: string; readonly name: string } | undefined;
    readonly secrets: readonly { readonly namespace: string; readonly name: string }[];
  }): void {
    this.deleteVertex('pv', '', pv.name);
    if (pv.claim === undefined) return;
    const pvVertex = this.#getOrCreate('pv', '', pv.name);
    this.#addEdge(pvVertex, this.#getOrCreate('pvc', pv.claim.namespace, pv.claim.name), undefined);
    for (const s of pv.secrets)
      this.#addEdge(this.#getOrCreate('secret', s.namespace, s.name), pvVertex, undefined);
  }

  deletePV(name: string): void {
    this.deleteVertex('pv', '', name);
  }

  /** AddVolumeAttachment (and AddResourceSlice): the object → its node, when it names one. */
  addNodeBound(type: 'volumeattachment' | 'resourceslice', name: string, nodeName: string): void {
    this.deleteVertex(type, '', name);
    if (nodeName === '') return;
    const nodeVertex = this.#getOrCreate('node', '', nodeName);
    this.#addEdge(this.#getOrCreate(type, '', name), nodeVertex, nodeName);
  }

  /**
   * deleteVertexLocked: removes the vertex and every neighbour it was the only neighbour of (a
   * secret only this pod used, a node only this pod ran on).
   */
  deleteVertex(type: VertexType, namespace: string, name: string): void {
    const vertex = this.#vertices.get(keyOf(type, namespace, name));
    if (vertex === undefined) return;
    const orphans: Vertex[] = [];
    for (const neighbor of vertex.out.keys()) if (neighbor.degree === 1) orphans.push(neighbor);
    for (const neighbor of vertex.in) if (neighbor.degree === 1) orphans.push(neighbor);
    this.#remove(vertex);
    for (const orphan of orphans) this.#remove(orphan);
  }

  /** hasPathFrom: whether the object reaches the node without passing through another node's edges. */
  hasPathFrom(nodeName: string, start: { type: VertexType; namespace: string; name: string }): PathResult {
    const what = `${start.type} ${start.namespace}/${start.name}`;
    const nodeVertex = this.#vertices.get(keyOf('node', '', nodeName));
    if (nodeVertex === undefined) return { ok: false, why: `unknown node '${nodeName}' cannot get ${what}` };
    const first = this.#vertices.get(keyOf(start.type, start.namespace, start.name));
    if (first === undefined) return { ok: false, why: `node '${nodeName}' cannot get unknown ${what}` };
    const none = {
      ok: false,
      why: `node '${nodeName}' cannot get ${what}, no relationship to this object was found in the node authorizer graph`,
    } as const;
    if (authoritative[first.type]) return first.destinations.has(nodeName) ? { ok: true } : none;
    const seen = new Set<Vertex>([first]);
    const stack: Vertex[] = [first];
    for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
      for (const [to, destination] of v.out) {
        if (destination !== undefined) {
          if (destination === nodeName) return { ok: true };
          continue;
        }
        if (to === nodeVertex) return { ok: true };
        if (!seen.has(to)) {
          seen.add(to);
          stack.push(to);
        }
      }
    }
    return none;
  }

  #getOrCreate(type: VertexType, namespace: string, name: string): Vertex {
    const key = keyOf(type, namespace, name);
    let vertex = this.#vertices.get(key);
    if (vertex === undefined) {
      vertex = new Vertex(type, namespace, name);
      this.#vertices.set(key, vertex);
    }
    return vertex;
  }

  /** addEdgeLocked: one edge per pair; an authoritative kind's edges always name their node. */
  #addEdge(from: Vertex, to: Vertex, destination: string | undefined): void {
    if (destination === undefined && authoritative[from.type])
      throw new Error(`vertex of type "${from.type}" must have destination edges only`);
    if (from.out.has(to)) return;
    from.out.set(to, destination);
    to.in.add(from);
    if (destination !== undefined)
      from.destinations.set(destination, (from.destinations.get(destination) ?? 0) + 1);
  }

  #remove(vertex: Vertex): void {
    for (const to of vertex.out.keys()) to.in.delete(vertex);
    for (const from of vertex.in) {
      const destination = from.out.get(vertex);
      from.out.delete(vertex);
      if (destination === undefined) continue;
      const left = (from.destinations.get(destination) ?? 0) - 1;
      if (left > 0) from.destinations.set(destination, left);
      else from.destinations.delete(destination);
    }
    this.#vertices.delete(keyOf(vertex.type, vertex.namespace, vertex.name));
  }
}
