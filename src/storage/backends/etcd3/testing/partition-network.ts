// What a partition test needs of the network between etcd members, whichever way it is built
// (network namespaces joined by veth pairs, or TCP proxies on the peer ports).

/** The partition kinds startEtcdCluster can build. */
export const PARTITION_KINDS = ['netns', 'peer-proxies'] as const;
export type PartitionKind = (typeof PARTITION_KINDS)[number];

export interface PartitionNetwork {
  readonly kind: PartitionKind;
  /** Cuts a member (by name and hex member id) off from every other member, both directions. */
  isolate(name: string, hexId: string): void;
  /** Reconnects every isolated member. */
  heal(): void;
  /** Removes whatever the network made; safe to call twice. */
  close(): Promise<void>;
}
