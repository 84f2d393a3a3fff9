// The namespaces the user may list, and "all namespaces".
import { useEffect, useState } from 'preact/hooks';
import { apiGet } from '../api.js';

export function NamespacePicker(props: { value: string; onChange: (ns: string) => void }) {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    apiGet<{ items: { metadata: { name: string } }[] }>('/api/v1/namespaces').then(
      (l) => {
        setNames(l.items.map((n) => n.metadata.name));
      },
      () => {
        setNames([]);
      },
    );
  }, []);
  return (
    <select
      data-testid="namespace"
      value={props.value}
      onChange={(e) => {
        props.onChange((e.target as HTMLSelectElement).value);
      }}
    >
      <option value="">all namespaces</option>
      {[...new Set([...names, ...(props.value === '' ? [] : [props.value])])].map((n) => (
        <option key={n} value={n}>
          {n}
        </option>
      ))}
    </select>
  );
}
