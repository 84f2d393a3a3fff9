// Sorting the few elements of one level of a field set or of one object's keys: an insertion sort in
// place beats Array.prototype.sort's setup for the handful of keys a level mostly has.

const smallEnough = 24;

/** Sorts `items` in place by `compare`, stably; returns `items`. */
export function sortSmall<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  if (items.length > smallEnough) return items.sort(compare);
  for (let i = 1; i < items.length; i++) {
    const item = items[i] as T;
    let j = i - 1;
    while (j >= 0 && compare(items[j] as T, item) > 0) {
      items[j + 1] = items[j] as T;
      j--;
    }
    items[j + 1] = item;
  }
  return items;
}

/** Sorts strings in place by UTF-16 code units, as `<` and a plain sort() compare them. */
export function sortStrings(items: string[]): string[] {
  if (items.length > smallEnough) return items.sort();
  for (let i = 1; i < items.length; i++) {
    const item = items[i] as string;
    let j = i - 1;
    while (j >= 0 && (items[j] as string) > item) {
      items[j + 1] = items[j] as string;
      j--;
    }
    items[j + 1] = item;
  }
  return items;
}
