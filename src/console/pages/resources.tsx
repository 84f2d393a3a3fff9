// Resources by group with their object counts (a limit=1 list: its length plus remainingItemCount).
import { useEffect, useState } from 'preact/hooks';
import { apiGet, resourcePath } from '../api.js';
import { groupLabel, type Resource } from '../discovery.js';
import { listHref } from '../route.js';

interface CountList {
  items: unknown[];
  metadata: { remainingItemCount?: number };
}

async function countOf(r: Resource): Promise<number> {
  const list = await apiGet<CountList>(`${resourcePath(r, '')}?limit=1`);
  return list.items.length + (list.metadata.remainingItemCount ?? 0);
}

/** Runs `fn` over `items`, `width` at a time. */
async function pool<T>(items: readonly T[], width: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await fn(item);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}

export function ResourcesPage(props: { resources: readonly Resource[] }) {
  const [counts, setCounts] = useState<ReadonlyMap<string, number | string>>(new Map());
  useEffect(() => {
    let live = true;
    const found = new Map<string, number | string>();
    const listable = props.resources.filter((r) => r.verbs.includes('list'));
    void pool(listable, 6, async (r) => {
      found.set(`${r.group}/${r.name}`, await countOf(r).catch(() => '–'));
      if (live) setCounts(new Map(found));
    });
    return () => {
      live = false;
    };
  }, [props.resources]);
  const pending = props.resources.filter(
    (r) => r.verbs.includes('list') && !counts.has(`${r.group}/${r.name}`),
  ).length;
  const groups = new Map<string, Resource[]>();
  for (const r of props.resources) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
  return (
    <div class="page" data-testid="resources-page" data-pending={pending}>
      <h1>Resources</h1>
      <div class="groups">
        {[...groups].map(([group, rs]) => (
          <section class="group" key={group}>
            <h2>{groupLabel(group)}</h2>
            <ul>
              {rs.map((r) => (
                <li key={r.name}>
                  <a
                    href={listHref(r.group, r.name)}
                    data-testid={`resource-${groupLabel(r.group)}-${r.name}`}
                  >
                    <span>{r.name}</span>
                    <span class="count">{counts.get(`${r.group}/${r.name}`) ?? ''}</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
