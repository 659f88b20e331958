/** What a server-paged query hook answers (RTK Query's, or a stand-in in tests). */
export type PagedQuery<TRow> = {
  data?: { items: readonly TRow[]; total: number };
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
};

/**
 * The DataTable props a page query decides (its rows, total, first load, refetch and failure, and
 * Retry), so each list spreads them instead of wiring six props by hand.
 */
export function tableQueryProps<TRow>(query: PagedQuery<TRow>) {
  return {
    rows: query.data?.items ?? [],
    total: query.data?.total ?? 0,
    loading: query.isLoading,
    busy: query.isFetching,
    failed: query.isError,
    onRetry: () => void query.refetch(),
  };
}
