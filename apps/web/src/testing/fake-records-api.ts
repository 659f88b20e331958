import { vi } from 'vitest';
import type { FieldDefinition } from '@notice-desk/contract/record-fields';
import { jsonResponse } from './test-utils.tsx';

type StoredRecord = Record<string, string> & { _id: string };
type RecordRoutes = { base: string; deleteAll: string };

export const creditCardRoutes: RecordRoutes = {
  base: '/api/credit-cards',
  deleteAll: '/api/credit-cards/delete-all-credit-cards',
};
export const noticeRoutes: RecordRoutes = {
  base: '/api/notices',
  deleteAll: '/api/notices/delete-all-notices',
};

/** A stored record with every field of `fields` set to '<key> <n>', then `overrides`. */
export function sampleRecord(
  fields: readonly FieldDefinition[],
  n: number,
  overrides: Record<string, string> = {},
) {
  return {
    _id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    campaignId: 'campaign-1',
    campaignName: 'March sheet',
    createdAt: '2025-03-01T12:00:00.000Z',
    updatedAt: '2025-03-01T12:00:00.000Z',
    pdfLink: '',
    ...Object.fromEntries(fields.map((field) => [field.key, `${field.key} ${n}`])),
    ...overrides,
  } as StoredRecord;
}

const notFound = () =>
  jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'Not found.', error: 'Not found.' });

/**
 * Stands in for the server's record endpoints (list, get, create, update, delete, delete-all) over an
 * in-memory list, through a stubbed `fetch`. `requests` keeps what the app sent.
 */
export function fakeRecordsApi(routes: RecordRoutes, initial: StoredRecord[], pdfUrl = '') {
  const records = [...initial];
  const requests: { method: string; path: string; body: unknown }[] = [];
  const fetch = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    const body: unknown = ['POST', 'PUT'].includes(request.method)
      ? await request.json().catch(() => null)
      : null;
    requests.push({ method: request.method, path: url.pathname, body });
    const id = url.pathname.startsWith(`${routes.base}/`) ? url.pathname.slice(routes.base.length + 1) : '';
    const index = records.findIndex((record) => record._id === id);

    if (request.method === 'GET' && url.pathname === `${routes.base}/by-user-id`) {
      const page = Number(url.searchParams.get('page'));
      const limit = Number(url.searchParams.get('limit'));
      const items = records.slice((page - 1) * limit, page * limit);
      return jsonResponse(200, { items, total: records.length, pdfUrl });
    }
    if (request.method === 'POST' && url.pathname === routes.deleteAll) {
      const deleted = records.splice(0).length;
      return jsonResponse(200, { message: 'All Credit cards deleted successfully.', deleted });
    }
    if (request.method === 'POST' && url.pathname === routes.base) {
      const created = { ...(body as Record<string, string>), _id: `new-${records.length + 1}`, pdfLink: '' };
      records.push(created);
      return jsonResponse(201, created);
    }
    if (index === -1) return notFound();
    if (request.method === 'GET') return jsonResponse(200, records[index]);
    if (request.method === 'PUT') {
      records[index] = { ...records[index]!, ...(body as Record<string, string>) };
      return jsonResponse(200, records[index]);
    }
    if (request.method === 'DELETE') {
      records.splice(index, 1);
      return jsonResponse(200, { message: 'deleted' });
    }
    return notFound();
  });
  vi.stubGlobal('fetch', fetch);
  return { records, requests, fetch };
}
