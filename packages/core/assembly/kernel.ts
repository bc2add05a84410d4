// Engram's vector kernel: exact top-k by dot product or cosine over a row-major f32 matrix that
// lives in this instance's linear memory. The host (src/kernel/wasm-matrix.ts) owns the layout:
// it passes pointers to the matrix, the precomputed row norms, the query and the output buffers.
//
// Rows are padded with zeros to a stride that is a multiple of 4 floats, so the dot product runs
// on whole f32x4 lanes without a scalar tail. Row norms are computed by the host at append/set
// time, so cosine costs one dot product per row.
//
// Top-k is kept in a bounded min-heap (root = worst kept hit) of `k` (row, score) pairs held in
// the output buffers; a row enters only when it beats the root, so for small k almost every row
// costs a single compare after its dot product. Order: higher score first, then lower row.

// Heap state of the running scan (one instance per matrix, so module globals are safe).
let heapRows: usize = 0;
let heapScores: usize = 0;
let heapSize: i32 = 0;
let heapCapacity: i32 = 0;

/** First free byte after static data: the host lays its buffers out from here. */
export function heapBase(): usize {
  return __heap_base;
}

/** True when hit `a` ranks below hit `b` (lower score, or same score and higher row). */
// @ts-ignore: decorator
@inline
function worse(scoreA: f32, rowA: i32, scoreB: f32, rowB: i32): bool {
  return scoreA < scoreB || (scoreA == scoreB && rowA > rowB);
}

/** Moves the entry at `index` down until both children rank above it. */
function siftDown(index: i32, size: i32): void {
  const row = load<i32>(heapRows + (<usize>index << 2));
  const score = load<f32>(heapScores + (<usize>index << 2));
  while (true) {
    let child = (index << 1) + 1;
    if (child >= size) break;
    let childScore = load<f32>(heapScores + (<usize>child << 2));
    let childRow = load<i32>(heapRows + (<usize>child << 2));
    const right = child + 1;
    if (right < size) {
      const rightScore = load<f32>(heapScores + (<usize>right << 2));
      const rightRow = load<i32>(heapRows + (<usize>right << 2));
      if (worse(rightScore, rightRow, childScore, childRow)) {
        child = right;
        childScore = rightScore;
        childRow = rightRow;
      }
    }
    if (!worse(childScore, childRow, score, row)) break;
    store<i32>(heapRows + (<usize>index << 2), childRow);
    store<f32>(heapScores + (<usize>index << 2), childScore);
    index = child;
  }
  store<i32>(heapRows + (<usize>index << 2), row);
  store<f32>(heapScores + (<usize>index << 2), score);
}

/** Moves the entry at `index` up while it ranks below its parent. */
function siftUp(index: i32): void {
  const row = load<i32>(heapRows + (<usize>index << 2));
  const score = load<f32>(heapScores + (<usize>index << 2));
  while (index > 0) {
    const parent = (index - 1) >> 1;
    const parentScore = load<f32>(heapScores + (<usize>parent << 2));
    const parentRow = load<i32>(heapRows + (<usize>parent << 2));
    if (!worse(score, row, parentScore, parentRow)) break;
    store<i32>(heapRows + (<usize>index << 2), parentRow);
    store<f32>(heapScores + (<usize>index << 2), parentScore);
    index = parent;
  }
  store<i32>(heapRows + (<usize>index << 2), row);
  store<f32>(heapScores + (<usize>index << 2), score);
}

/** Offers a hit; rows arrive in increasing order, so a tie with the root never displaces it. */
// @ts-ignore: decorator
@inline
function offer(row: i32, score: f32): void {
  if (heapSize < heapCapacity) {
    store<i32>(heapRows + (<usize>heapSize << 2), row);
    store<f32>(heapScores + (<usize>heapSize << 2), score);
    siftUp(heapSize);
    heapSize++;
  } else if (score > load<f32>(heapScores)) {
    store<i32>(heapRows, row);
    store<f32>(heapScores, score);
    siftDown(0, heapSize);
  }
}

/** Sorts the heap in place, best first (heap sort on a min-heap leaves the best at index 0). */
function finish(): i32 {
  for (let end = heapSize - 1; end > 0; end--) {
    const endRow = load<i32>(heapRows + (<usize>end << 2));
    const endScore = load<f32>(heapScores + (<usize>end << 2));
    store<i32>(heapRows + (<usize>end << 2), load<i32>(heapRows));
    store<f32>(heapScores + (<usize>end << 2), load<f32>(heapScores));
    store<i32>(heapRows, endRow);
    store<f32>(heapScores, endScore);
    siftDown(0, end);
  }
  return heapSize;
}

/** Dot product of two rows of `stride` floats (`stride` a multiple of 4), four f32x4 accumulators. */
// @ts-ignore: decorator
@inline
function dot(row: usize, query: usize, stride: i32): f32 {
  let acc0 = f32x4.splat(0);
  let acc1 = f32x4.splat(0);
  let acc2 = f32x4.splat(0);
  let acc3 = f32x4.splat(0);
  const end16 = row + (<usize>(stride & ~15) << 2);
  const end = row + (<usize>stride << 2);
  let q = query;
  let r = row;
  while (r < end16) {
    acc0 = f32x4.add(acc0, f32x4.mul(v128.load(r), v128.load(q)));
    acc1 = f32x4.add(acc1, f32x4.mul(v128.load(r, 16), v128.load(q, 16)));
    acc2 = f32x4.add(acc2, f32x4.mul(v128.load(r, 32), v128.load(q, 32)));
    acc3 = f32x4.add(acc3, f32x4.mul(v128.load(r, 48), v128.load(q, 48)));
    r += 64;
    q += 64;
  }
  while (r < end) {
    acc0 = f32x4.add(acc0, f32x4.mul(v128.load(r), v128.load(q)));
    r += 16;
    q += 16;
  }
  const sum = f32x4.add(f32x4.add(acc0, acc1), f32x4.add(acc2, acc3));
  return (
    f32x4.extract_lane(sum, 0) + f32x4.extract_lane(sum, 1) +
    (f32x4.extract_lane(sum, 2) + f32x4.extract_lane(sum, 3))
  );
}

/** Cosine from a dot product and both norms; 0 when either norm is 0, NaN (overflow) ranks last. */
// @ts-ignore: decorator
@inline
function cosine(product: f32, queryNorm: f64, rowNorm: f32): f32 {
  const denominator = queryNorm * <f64>rowNorm;
  if (denominator == 0) return 0;
  const score = <f32>(<f64>product / denominator);
  return score != score ? -Infinity : score;
}

// @ts-ignore: decorator
@inline
function dotScore(product: f32): f32 {
  return product != product ? -Infinity : product;
}

/**
 * Scans `rows` rows and keeps the best `k` in `outRows`/`outScores`, sorted best first; returns
 * how many were kept. `queryNorm` < 0 selects the dot metric. `mask` 0 means every row is a
 * candidate, else one byte per row (non-zero = candidate).
 */
export function topK(
  matrix: usize,
  norms: usize,
  rows: i32,
  stride: i32,
  query: usize,
  queryNorm: f64,
  mask: usize,
  k: i32,
  outRows: usize,
  outScores: usize,
): i32 {
  heapRows = outRows;
  heapScores = outScores;
  heapSize = 0;
  heapCapacity = k;
  if (k <= 0) return 0;
  const rowBytes = <usize>stride << 2;
  const useCosine = queryNorm >= 0;
  let pointer = matrix;
  for (let row = 0; row < rows; row++, pointer += rowBytes) {
    if (mask != 0 && load<u8>(mask + <usize>row) == 0) continue;
    const product = dot(pointer, query, stride);
    const score = useCosine
      ? cosine(product, queryNorm, load<f32>(norms + (<usize>row << 2)))
      : dotScore(product);
    offer(row, score);
  }
  return finish();
}

/**
 * Two-pass variant kept for the benchmark: writes every row's score to `scores` (no branches in
 * the scan), then selects the best `k` from that buffer. Same arguments and result as {@link topK}.
 */
export function topKTwoPass(
  matrix: usize,
  norms: usize,
  rows: i32,
  stride: i32,
  query: usize,
  queryNorm: f64,
  mask: usize,
  k: i32,
  outRows: usize,
  outScores: usize,
  scores: usize,
): i32 {
  heapRows = outRows;
  heapScores = outScores;
  heapSize = 0;
  heapCapacity = k;
  if (k <= 0) return 0;
  const rowBytes = <usize>stride << 2;
  let pointer = matrix;
  if (queryNorm >= 0) {
    for (let row = 0; row < rows; row++, pointer += rowBytes) {
      const product = dot(pointer, query, stride);
      store<f32>(scores + (<usize>row << 2), cosine(product, queryNorm, load<f32>(norms + (<usize>row << 2))));
    }
  } else {
    for (let row = 0; row < rows; row++, pointer += rowBytes) {
      store<f32>(scores + (<usize>row << 2), dotScore(dot(pointer, query, stride)));
    }
  }
  for (let row = 0; row < rows; row++) {
    if (mask != 0 && load<u8>(mask + <usize>row) == 0) continue;
    offer(row, load<f32>(scores + (<usize>row << 2)));
  }
  return finish();
}
