import type { Database } from '../db/database.ts';
import type { NoticePageEventsTable, NoticeResponsesTable } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';

/** The record a notice page belongs to, as its rows name it. */
export interface PageOf {
  owner_id: string;
  record_id: string;
  campaign_id: string;
  record_kind?: 'notice' | 'credit-card';
}

/**
 * A notice page event written straight into the table, as the public page's routes (built elsewhere)
 * append them: for tests of what reads them (service dates, filters, evidence).
 */
export async function seedPageEvent(
  db: Database,
  page: PageOf,
  event: NoticePageEventsTable['event'],
  at: string,
  extra: Partial<Pick<NoticePageEventsTable, 'channel' | 'ip' | 'user_agent' | 'detail'>> = {},
): Promise<void> {
  await db
    .insertInto('notice_page_events')
    .values({
      id: newId(),
      code: `code-${page.record_id}`.slice(0, 22),
      record_kind: 'notice',
      ...page,
      event,
      at,
      channel: null,
      ip: null,
      user_agent: null,
      detail: null,
      ...extra,
    })
    .execute();
}

/** A borrower's answer from the notice page, written straight into the table. */
export async function seedResponse(
  db: Database,
  page: PageOf,
  response: Pick<NoticeResponsesTable, 'kind' | 'text' | 'created_at'> &
    Partial<Pick<NoticeResponsesTable, 'file_key' | 'file_name' | 'file_type' | 'file_sha256'>>,
): Promise<void> {
  await db
    .insertInto('notice_responses')
    .values({
      id: newId(),
      code: `code-${page.record_id}`.slice(0, 22),
      record_kind: 'notice',
      ...page,
      file_key: null,
      file_name: null,
      file_type: null,
      file_sha256: null,
      handled_at: null,
      handled_by: null,
      ...response,
    })
    .execute();
}
