// Owners (from ownerReferences) and dependents (objects in the namespace naming this one as owner).
import { useEffect, useState } from 'preact/hooks';
import { apiGet, resourcePath } from '../api.js';
import { resourceOfKind, type Resource } from '../discovery.js';
import { objectHref } from '../route.js';

interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}
interface Meta {
  name: string;
  namespace?: string;
  uid?: string;
  ownerReferences?: OwnerRef[];
}
const metadataAccept = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json';

interface Dependent {
  resource: Resource;
  meta: Meta;
}

export function RelationsTab(props: { resources: readonly Resource[]; meta: Meta }) {
  const { meta, resources } = props;
  const [dependents, setDependents] = useState<Dependent[] | undefined>();
  useEffect(() => {
    const ns = meta.namespace ?? '';
    const candidates = resources.filter((r) => r.verbs.includes('list') && (ns === '' || r.namespaced));
    void Promise.all(
      candidates.map((r) =>
        apiGet<{ items: { metadata: Meta }[] }>(resourcePath(r, ns), metadataAccept).then(
          (l) =>
            l.items
              .filter((o) => o.metadata.ownerReferences?.some((o2) => o2.uid === meta.uid))
              .map((o) => ({ resource: r, meta: o.metadata })),
          () => [],
        ),
      ),
    ).then((found) => {
      setDependents(found.flat());
    });
  }, [meta.uid, meta.namespace, resources]);
  const owners = meta.ownerReferences ?? [];
  return (
    <div class="relations" data-testid="relations">
      <h3>Owners</h3>
      {owners.length === 0 ? (
        <p class="muted">none</p>
      ) : (
        <ul>
          {owners.map((o) => {
            const r = resourceOfKind(resources, o.apiVersion, o.kind);
            return (
              <li key={o.uid}>
                {r === undefined ? (
                  `${o.kind}/${o.name}`
                ) : (
                  <a
                    href={objectHref({
                      group: r.group,
                      resource: r.name,
                      namespace: r.namespaced ? (meta.namespace ?? '') : '',
                      name: o.name,
                    })}
                  >
                    {o.kind}/{o.name}
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <h3>Dependents</h3>
      {dependents === undefined ? (
        <p class="muted">Looking…</p>
      ) : dependents.length === 0 ? (
        <p class="muted">none</p>
      ) : (
        <ul>
          {dependents.map((d) => (
            <li key={d.meta.uid}>
              <a
                href={objectHref({
                  group: d.resource.group,
                  resource: d.resource.name,
                  namespace: d.meta.namespace ?? '',
                  name: d.meta.name,
                })}
              >
                {d.resource.kind}/{d.meta.name}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
