import { useCallback, useState } from 'react';

/**
 * Page and page size of a server-paged list; a new page size starts again at page 1 (spec), and so
 * does a new `search` (the matches of another text have pages of their own).
 */
export function usePagination(defaultLimit: number, search = '') {
  const [paging, setPaging] = useState({ page: 1, limit: defaultLimit, search });
  if (paging.search !== search) setPaging({ ...paging, page: 1, search });
  const page = paging.search === search ? paging.page : 1;
  const setPage = useCallback((page: number) => setPaging((current) => ({ ...current, page })), []);
  const setLimit = useCallback(
    (limit: number) => setPaging((current) => ({ ...current, page: 1, limit })),
    [],
  );
  return { page, limit: paging.limit, setPage, setLimit };
}
