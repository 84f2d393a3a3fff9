// The events page's list: newest first, at most `keep` entries; an event seen again (its count and
// last timestamp updated) moves to the top, as kubectl's --watch prints it again. An event deleted
// (its TTL ran out) stays: what was seen is not taken from under the reader.

export interface FeedEvent {
  readonly metadata: { readonly uid?: string; readonly name: string; readonly namespace?: string };
}

const keyOf = (e: FeedEvent): string => e.metadata.uid ?? `${e.metadata.namespace ?? ''}/${e.metadata.name}`;

/** A list answer (oldest first) as the feed: its newest `keep`, newest first. */
export function initialFeed<T extends FeedEvent>(items: readonly T[], keep: number): T[] {
  return items.slice(-keep).reverse();
}

/** The feed after a watch event; DELETED, BOOKMARK and ERROR leave it as it is. */
export function mergeEvent<T extends FeedEvent>(
  feed: readonly T[],
  event: { readonly type: string; readonly object: T },
  keep: number,
): readonly T[] {
  const key = keyOf(event.object);
  switch (event.type) {
    case 'ADDED':
    case 'MODIFIED':
      return [event.object, ...feed.filter((e) => keyOf(e) !== key)].slice(0, keep);
    default:
      return feed;
  }
}
