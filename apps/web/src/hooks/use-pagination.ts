import { useCallback, useState } from 'react';

/** Page and page size of a server-paged list; a new page size starts again at page 1 (spec). */
export function usePagination(defaultLimit: number) {
  const [paging, setPaging] = useState({ page: 1, limit: defaultLimit });
  const setPage = useCallback((page: number) => setPaging((current) => ({ ...current, page })), []);
  const setLimit = useCallback((limit: number) => setPaging({ page: 1, limit }), []);
  return { page: paging.page, limit: paging.limit, setPage, setLimit };
}
