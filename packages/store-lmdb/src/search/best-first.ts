/**
 * Yields candidate indexes in descending score order without sorting them all: a binary max-heap
 * built in O(n), popped lazily, so taking the best k of n costs O(n + k log n).
 */
export function bestFirst(scores: Float64Array, count: number): () => number {
  const heap = new Int32Array(count);
  for (let index = 0; index < count; index++) heap[index] = index;
  let size = count;
  const above = (a: number, b: number) => (scores[a] as number) > (scores[b] as number);
  const siftDown = (start: number) => {
    let position = start;
    const item = heap[position] as number;
    for (;;) {
      const left = 2 * position + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && above(heap[right] as number, heap[left] as number) ? right : left;
      if (!above(heap[child] as number, item)) break;
      heap[position] = heap[child] as number;
      position = child;
    }
    heap[position] = item;
  };
  for (let index = (size >> 1) - 1; index >= 0; index--) siftDown(index);
  return () => {
    if (size === 0) return -1;
    const top = heap[0] as number;
    size -= 1;
    if (size > 0) {
      heap[0] = heap[size] as number;
      siftDown(0);
    }
    return top;
  };
}

/** A hit before its unit is loaded. */
export interface RankedRow {
  /** Unit id. */
  id: string;
  /** Score. */
  score: number;
}

/** The k-th largest score (k ≥ 1, k ≤ count), by one pass with a size-k min-heap. */
function kthLargest(scores: Float64Array, count: number, k: number): number {
  const heap = new Float64Array(k);
  let size = 0;
  const siftDown = () => {
    let position = 0;
    const item = heap[0] as number;
    for (;;) {
      const left = 2 * position + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && (heap[right] as number) < (heap[left] as number) ? right : left;
      if ((heap[child] as number) >= item) break;
      heap[position] = heap[child] as number;
      position = child;
    }
    heap[position] = item;
  };
  for (let index = 0; index < count; index++) {
    const score = scores[index] as number;
    if (size < k) {
      let position = size++;
      heap[position] = score;
      while (position > 0) {
        const parent = (position - 1) >> 1;
        if ((heap[parent] as number) <= score) break;
        heap[position] = heap[parent] as number;
        heap[parent] = score;
        position = parent;
      }
    } else if (score > (heap[0] as number)) {
      heap[0] = score;
      siftDown();
    }
  }
  return heap[0] as number;
}

const byScoreThenId = (a: RankedRow, b: RankedRow) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Takes candidates best first, keeping those `accept` returns an id for, until `k` are kept and
 * the next candidate scores lower than the k-th (so ties at the cut-off are all seen); returns
 * them ordered by score, then id, cut to `k`. Large candidate sets first try only those scoring
 * at least the k-th best score overall (one pass); filters that reject some fall back to the heap.
 */
export function selectTop(scores: Float64Array, count: number, k: number, accept: (index: number) => string | undefined): RankedRow[] {
  if (k <= 0 || count === 0) return [];
  if (count > 8 * k) {
    const floor = kthLargest(scores, count, k);
    const best: number[] = [];
    for (let index = 0; index < count; index++) if ((scores[index] as number) >= floor) best.push(index);
    best.sort((a, b) => (scores[b] as number) - (scores[a] as number));
    const kept: RankedRow[] = [];
    for (const index of best) {
      const score = scores[index] as number;
      if (kept.length >= k && score < (kept[k - 1] as RankedRow).score) break;
      const id = accept(index);
      if (id !== undefined) kept.push({ id, score });
    }
    if (kept.length >= k) return kept.sort(byScoreThenId).slice(0, k);
  }
  const next = bestFirst(scores, count);
  const kept: RankedRow[] = [];
  for (let index = next(); index !== -1; index = next()) {
    const score = scores[index] as number;
    if (kept.length >= k && score < (kept[k - 1] as RankedRow).score) break;
    const id = accept(index);
    if (id !== undefined) kept.push({ id, score });
  }
  return kept.sort(byScoreThenId).slice(0, k);
}
