import type { AuditList, AuditQuery } from '@notice-desk/contract/audit';
import { api } from '../../../lib/api.ts';

/** What the screen asks for: a page, and only the filters that are set. */
export type AuditLogArgs = Pick<AuditQuery, 'page' | 'limit'> &
  Partial<Pick<AuditQuery, 'action' | 'actor' | 'from' | 'to'>>;

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAuditLog: build.query<AuditList, AuditLogArgs>({
      query: ({ page, limit, action, actor, from, to }) => ({
        url: '/api/audit',
        params: {
          page,
          limit,
          ...(action && { action }),
          ...(actor && { actor }),
          ...(from && { from }),
          ...(to && { to }),
        },
      }),
    }),
  }),
});

export const { useGetAuditLogQuery } = auditApi;
