// What store-peer.ts says on stdout, one JSON object a line, and where it watches.
export type PeerMessage =
  | { readonly ready: true }
  | { readonly event: { readonly type: string; readonly name: string; readonly rv: number } }
  | { readonly acked: { readonly name: string; readonly rv: number } }
  | { readonly compacted: { readonly revision: number; readonly at: number } }
  | { readonly error: string };

export const peerPrefix = '/configmaps/peer';
