// Keyboard navigation: single keys on a page (j/k/Enter, / to filter), "g r" and "g e" to go to
// resources or events; keys typed into a field are the field's.
import { useEffect } from 'preact/hooks';

export type KeyMap = Readonly<Record<string, () => void>>;

const typing = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');

export function useKeys(keys: KeyMap): void {
  useEffect(() => {
    let prefix = '';
    const on = (e: KeyboardEvent): void => {
      if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const key = prefix === '' ? e.key : `${prefix} ${e.key}`;
      prefix = '';
      const fn = keys[key];
      if (fn !== undefined) {
        e.preventDefault();
        fn();
      } else if (Object.keys(keys).some((k) => k.startsWith(`${e.key} `))) prefix = e.key;
    };
    addEventListener('keydown', on);
    return () => {
      removeEventListener('keydown', on);
    };
  });
}
