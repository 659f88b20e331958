/** Deep pages start from the nearest boundary, so no page query skips more than this many rows. */
export const PAGE_STRIDE = 100;

/** How many lists' boundaries one process keeps (owners × filters); the oldest go first. */
const MAX_LISTS = 5000;

/** One list's queries, in its own order (newest first, username order…), for DeepPages. */
export interface KeyedList<Key, Row> {
  /** The page `offset` rows from the top; offset is below the stride. */
  fromTop(offset: number, limit: number): Promise<Row[]>;
  /** The keys at positions 0, stride, 2·stride, … of the list: one pass over its index. */
  boundaries(stride: number): Promise<Key[]>;
  /** The page `offset` rows on from the row whose key is `from` (that row included). */
  fromKey(from: Key, offset: number, limit: number): Promise<Row[]>;
}

/**
 * Page-number paging by key: a page deep in a long list starts from the nearest cached boundary key
 * rather than skipping every row before it, so no page query skips more than `stride` rows. The
 * boundaries of a list are kept while its `version` (whatever changes when a row joins, leaves or moves
 * in the list) is unchanged; a new version reads them again, once, whoever asks.
 */
export class DeepPages<Key> {
  private readonly lists = new Map<string, { version: string; keys: Promise<Key[]> }>();

  constructor(readonly stride = PAGE_STRIDE) {}

  async page<Row>(
    list: string,
    version: string,
    offset: number,
    limit: number,
    queries: KeyedList<Key, Row>,
  ): Promise<Row[]> {
    if (offset < this.stride) return queries.fromTop(offset, limit);
    let cached = this.lists.get(list);
    if (!cached || cached.version !== version) {
      this.lists.delete(list);
      if (this.lists.size >= MAX_LISTS) this.lists.delete(this.lists.keys().next().value!);
      cached = { version, keys: queries.boundaries(this.stride) };
      this.lists.set(list, cached);
      cached.keys.catch(() => this.lists.delete(list));
    }
    const keys = await cached.keys;
    // Past the last boundary's stride the list has no rows: nothing to skip to.
    if (offset >= keys.length * this.stride) return [];
    const index = Math.min(Math.floor(offset / this.stride), keys.length - 1);
    const from = keys[index];
    if (from === undefined) return [];
    return queries.fromKey(from, offset - index * this.stride, limit);
  }
}
