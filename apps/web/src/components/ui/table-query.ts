/** What a server-paged query hook answers (RTK Query's, or a stand-in in tests). */
export type PagedQuery<TRow> = {
  data?: { items: readonly TRow[]; total: number };
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
};

/** A list's page and page size with their setters, as `usePagination` answers them. */
type Paging = {
  page: number;
  limit: number;
  setPage: (page: number) => void;
  setLimit: (limit: number) => void;
};

/** Every stored row is told apart by its id. */
const storedRowId = (row: { _id: string }) => row._id;

/**
 * The DataTable props a page query and its paging decide (rows, total, first load, refetch and
 * failure, Retry, the row ids, and the pager), so each server-paged list spreads them instead of
 * wiring them by hand.
 */
export function pagedTableProps<TRow extends { _id: string }>(
  query: PagedQuery<TRow>,
  { page, limit, setPage, setLimit }: Paging,
  pageSizes: readonly number[],
) {
  return {
    rows: query.data?.items ?? [],
    total: query.data?.total ?? 0,
    loading: query.isLoading,
    busy: query.isFetching,
    failed: query.isError,
    onRetry: () => void query.refetch(),
    rowId: storedRowId,
    page,
    limit,
    pageSizes,
    onPageChange: setPage,
    onLimitChange: setLimit,
  };
}
