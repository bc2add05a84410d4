/** Orders ids by UTF-16 code units, like `<`: the id order of every list query. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A sorted snapshot of a changing id set, rebuilt lazily after a change, so that paging through
 * a list does not sort on every call.
 */
export class SortedIds {
  private sorted: string[] | undefined;

  constructor(private readonly source: () => Iterable<string>) {}

  /** Marks the snapshot stale. */
  invalidate(): void {
    this.sorted = undefined;
  }

  /** The ids in order. */
  get(): readonly string[] {
    this.sorted ??= [...this.source()].sort(compareIds);
    return this.sorted;
  }

  /** Index of the first id sorting after `after` (0 when `after` is undefined). */
  startAfter(after: string | undefined): number {
    const ids = this.get();
    if (after === undefined) return 0;
    let low = 0;
    let high = ids.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((ids[middle] as string) <= after) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
