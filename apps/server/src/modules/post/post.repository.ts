import type { Kysely } from 'kysely';
import type { Ladder } from '@notice-desk/contract/fallback';
import type { PostStatus, ReturnReason } from '@notice-desk/contract/post';
import type { Database } from '../../db/database.ts';
import type {
  DB,
  DeliveriesTable,
  DeliveryStatus,
  PostArticlesTable,
  PostProofsTable,
  RecordKind,
} from '../../db/schema.ts';
import { nowIso } from '../../lib/time.ts';

/** A post delivery row: a delivery whose channel is 'post'. */
export type PostDeliveryRow = Omit<DeliveriesTable, 'channel'> & { channel: 'post' };

/**
 * The database as post sees it: its deliveries are post deliveries. The sending service's Channel type
 * names the channels it sends by (e-mail, WhatsApp); post rows are written and read here only.
 */
type PostDb = Omit<DB, 'deliveries'> & { deliveries: PostDeliveryRow };
const postDb = (db: Database) => db as unknown as Kysely<PostDb>;

export type ArticleRow = PostArticlesTable;
export type ProofRow = PostProofsTable;

/** The records' articles (any owner: callers pass the owner's records). */
export async function articlesForRecords(
  db: Database,
  kind: RecordKind,
  recordIds: readonly string[],
): Promise<ArticleRow[]> {
  const rows: ArticleRow[] = [];
  for (let i = 0; i < recordIds.length; i += 500)
    rows.push(
      ...(await db
        .selectFrom('post_articles')
        .selectAll()
        .where('record_kind', '=', kind)
        .where('record_id', 'in', recordIds.slice(i, i + 500))
        .orderBy('record_id')
        .execute()),
    );
  return rows;
}

/** Articles with these numbers, of any owner (a number is unique across owners). */
export async function articlesByNumber(db: Database, numbers: readonly string[]): Promise<ArticleRow[]> {
  const rows: ArticleRow[] = [];
  for (let i = 0; i < numbers.length; i += 500)
    rows.push(
      ...(await db
        .selectFrom('post_articles')
        .selectAll()
        .where('article_number', 'in', numbers.slice(i, i + 500))
        .orderBy('article_number')
        .execute()),
    );
  return rows;
}

/** One booking: the post delivery, its first event (booked: 'sent', the dispatch) and its article. */
export interface Booking {
  delivery: PostDeliveryRow;
  article: ArticleRow;
  detail: string;
}

/** Writes the bookings in one transaction: all or none (a number taken meanwhile fails them all). */
export async function insertBookings(db: Database, bookings: readonly Booking[]): Promise<void> {
  await postDb(db)
    .transaction()
    .execute(async (trx) => {
      for (let i = 0; i < bookings.length; i += 100) {
        const chunk = bookings.slice(i, i + 100);
        await trx
          .insertInto('deliveries')
          .values(chunk.map((b) => b.delivery))
          .execute();
        await trx
          .insertInto('delivery_events')
          .values(
            chunk.map((b) => ({
              delivery_id: b.delivery.id,
              status: b.delivery.status,
              at: b.delivery.status_at,
              detail: b.detail,
              recorded_at: nowIso(),
              refused: null,
            })),
          )
          .execute();
        await trx
          .insertInto('post_articles')
          .values(chunk.map((b) => b.article))
          .execute();
      }
    });
}

/** A tracking event as the trail keeps it: its post step, the delivery status it maps to, and words. */
export interface PostEvent {
  postStatus: PostStatus;
  returnReason: ReturnReason | null;
  deliveryStatus: DeliveryStatus;
  at: string;
  detail: string;
  /** The event's identity: the same article, event and time imported again is a replay. */
  eventKey: string;
}

const postRank: Record<PostStatus, number> = { booked: 0, in_transit: 1, delivered: 2, returned: 2 };

/**
 * Records a tracking event once (by its key), moving the article and its delivery forward only: a later
 * step moves both; the same or an earlier step, or one after delivered/returned, is kept in the trail
 * with why it did not move anything.
 */
export function applyPostEvent(
  db: Database,
  article: Pick<ArticleRow, 'delivery_id'>,
  event: PostEvent,
): Promise<'applied' | 'unchanged' | 'replayed'> {
  return db.transaction().execute(async (trx) => {
    const now = await trx
      .selectFrom('post_articles')
      .select(['post_status', 'return_reason'])
      .where('delivery_id', '=', article.delivery_id)
      .executeTakeFirstOrThrow();
    const from = now.post_status;
    const moves = postRank[event.postStatus] > postRank[from] && from !== 'delivered' && from !== 'returned';
    const refused = moves
      ? null
      : from === 'delivered' || from === 'returned'
        ? `not applied: the article was already ${from}, which is final`
        : `not applied: the article was already ${from.replace('_', ' ')}; a status never moves backwards`;
    const inserted = await trx
      .insertInto('delivery_events')
      .values({
        delivery_id: article.delivery_id,
        status: event.deliveryStatus,
        at: event.at,
        detail: event.detail,
        provider_event: event.eventKey,
        recorded_at: nowIso(),
        refused,
      })
      .onConflict((oc) => oc.columns(['delivery_id', 'provider_event']).doNothing())
      .returning('delivery_id')
      .executeTakeFirst();
    if (!inserted) return 'replayed';
    if (!moves) return 'unchanged';
    await trx
      .updateTable('post_articles')
      .set({ post_status: event.postStatus, return_reason: event.returnReason, status_at: event.at })
      .where('delivery_id', '=', article.delivery_id)
      .where('post_status', '=', from)
      .execute();
    // The delivery's own status follows where it moves forward: delivered, or bounced when returned.
    if (event.deliveryStatus !== 'sent')
      await trx
        .updateTable('deliveries')
        .set({
          status: event.deliveryStatus,
          status_at: event.at,
          ...(event.deliveryStatus === 'bounced' ? { error: event.detail, active_key: null } : {}),
        })
        .where('id', '=', article.delivery_id)
        .where('status', '=', 'sent')
        .execute();
    return 'applied';
  });
}

export async function insertProof(db: Database, proof: ProofRow): Promise<void> {
  await db.insertInto('post_proofs').values(proof).execute();
}

/** The proofs kept for these post deliveries, oldest first. */
export async function proofsForDeliveries(db: Database, deliveryIds: readonly string[]): Promise<ProofRow[]> {
  const rows: ProofRow[] = [];
  for (let i = 0; i < deliveryIds.length; i += 500)
    rows.push(
      ...(await db
        .selectFrom('post_proofs')
        .selectAll()
        .where('delivery_id', 'in', deliveryIds.slice(i, i + 500))
        .orderBy('created_at')
        .orderBy('id')
        .execute()),
    );
  return rows;
}

/** The post delivery of an article, for the events an AD card adds. */
export function findPostDelivery(db: Database, id: string): Promise<PostDeliveryRow | undefined> {
  return postDb(db).selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The campaign's fallback ladder (modules/fallback): its own, else its record kind's; null when none.
 * Post reads it to know whether every record of the campaign goes by post.
 */
export async function ladderOfCampaign(
  db: Database,
  campaignId: string,
  kind: RecordKind,
): Promise<Ladder | null> {
  const rows = await db
    .selectFrom('fallback_ladders')
    .select(['scope', 'ladder'])
    .where((eb) =>
      eb.or([
        eb.and([eb('scope', '=', 'campaign'), eb('scope_id', '=', campaignId)]),
        eb.and([eb('scope', '=', 'kind'), eb('scope_id', '=', kind)]),
      ]),
    )
    .orderBy('scope')
    .execute();
  // 'campaign' sorts before 'kind': a campaign's own ladder wins.
  return rows[0] ? (JSON.parse(rows[0].ladder) as Ladder) : null;
}

/** The campaign's records a ladder's post step made post records, in id order. */
export async function ladderPostRecords(db: Database, campaignId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('fallback_steps')
    .select('record_id')
    .where('campaign_id', '=', campaignId)
    .where('channel', '=', 'post')
    .where('outcome', '=', 'taken')
    .orderBy('record_id')
    .execute();
  return rows.map((row) => row.record_id);
}
