import type { MemoryStore, UnitKind } from '@engram/core';

/** How many records of each layer one user has. */
export interface LayerCounts {
  turns: number;
  episodes: number;
  facts: number;
  topics: number;
  cues: number;
  tags: number;
}

const pageSize = 1000;

async function countPages(list: (after: string | undefined) => Promise<ReadonlyArray<{ id: string }>>): Promise<number> {
  let count = 0;
  let after: string | undefined;
  for (;;) {
    const page = await list(after);
    count += page.length;
    if (page.length < pageSize) return count;
    after = page[page.length - 1]?.id;
  }
}

/** Counts a user's units per kind, cues and tags by paging through the store's lists. */
export async function countLayers(store: MemoryStore, userId: string): Promise<LayerCounts> {
  const scope = { userId };
  const units = (kind: UnitKind) => countPages((after) => store.listUnits(scope, { kinds: [kind], limit: pageSize, ...(after === undefined ? {} : { after }) }));
  const [turns, episodes, facts, topics, cues, tags] = await Promise.all([
    units('turn'),
    units('episode'),
    units('fact'),
    units('topic'),
    countPages((after) => store.listCues(scope, { limit: pageSize, ...(after === undefined ? {} : { after }) })),
    countPages((after) => store.listTags(scope, { limit: pageSize, ...(after === undefined ? {} : { after }) })),
  ]);
  return { turns, episodes, facts, topics, cues, tags };
}
