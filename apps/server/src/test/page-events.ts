import type { NoticePageEvent } from '@notice-desk/contract/notice-page';
import type { Database } from '../db/database.ts';
import type { NoticePageEventsTable } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';

type PageEventSeed = Pick<NoticePageEventsTable, 'owner_id' | 'record_id' | 'campaign_id'> &
  Partial<Omit<NoticePageEventsTable, 'event'>>;

/**
 * Notice page events as the page writes them (a notice's, by an unknown link unless `channel` says),
 * one per name in `events`: for tests of what reads them, without the page itself.
 */
export async function insertPageEvents(
  db: Database,
  seed: PageEventSeed,
  events: NoticePageEvent[],
): Promise<void> {
  const at = new Date().toISOString();
  await db
    .insertInto('notice_page_events')
    .values(
      events.map((event) => ({
        id: newId(),
        code: 'test-code-0000000000000',
        record_kind: 'notice' as const,
        channel: null,
        at,
        ip: '203.0.113.7',
        user_agent: 'test',
        detail: null,
        ...seed,
        event,
      })),
    )
    .execute();
}
