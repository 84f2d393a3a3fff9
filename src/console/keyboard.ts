// Keyboard navigation: single keys on a page (j/k/Enter, / to filter), "g r" and "g e" to go to
// resources or events; keys typed into a field are the field's.
import { useEffect } from 'preact/hooks';
import { keyStep } from './key-sequence.js';

export type KeyMap = Readonly<Record<string, () => void>>;

const typing = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT');

export function useKeys(keys: KeyMap): void {
  useEffect(() => {
    let prefix = '';
    const on = (e: KeyboardEvent): void => {
      if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const step = keyStep(Object.keys(keys), prefix, e.key);
      prefix = step.prefix;
      const fn = step.binding === undefined ? undefined : keys[step.binding];
      if (fn !== undefined) {
        e.preventDefault();
        fn();
      }
    };
    addEventListener('keydown', on);
    return () => {
      removeEventListener('keydown', on);
    };
  });
}
