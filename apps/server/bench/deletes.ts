import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/database.ts';
import { newId } from '../src/lib/ids.ts';
import { noticeKind } from '../src/modules/records/record-kinds.ts';
import { benchTarget, postgresReachable, seedCampaign, table, type BenchTarget } from './support.ts';

/**
 * Delete All of 100,000 notices (searchable), a tenth of them served: how long the preview (the
 * confirmation's counts) and the delete itself take. Run: node --import tsx apps/server/bench/deletes.ts
 */
const RECORDS = 100_000;
const SERVED_EVERY = 10;

async function benchDeleteAll(label: BenchTarget['label']) {
  const target = await benchTarget(label, 'deletes');
  const app = await buildApp({ ...target.config, runJobs: false });
  try {
    const register = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Bench', username: 'bench', password: 'bench-password-1' },
    });
    const ownerId = register.json<{ _id: string }>()._id;
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'bench', password: 'bench-password-1' },
    });
    const headers = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
    const { campaignId, ids } = await seedCampaign(target, ownerId, noticeKind, RECORDS, {
      searchable: true,
    });
    const { db } = await openDatabase(target.config);
    const at = new Date().toISOString();
    const served = ids.filter((_, i) => i % SERVED_EVERY === 0);
    for (let i = 0; i < served.length; i += 500) {
      await db
        .insertInto('deliveries')
        .values(
          served.slice(i, i + 500).map((recordId) => ({
            id: newId(),
            owner_id: ownerId,
            record_kind: 'notice' as const,
            record_id: recordId,
            campaign_id: campaignId,
            channel: 'email' as const,
            active_key: `${recordId}:email`,
            recipient: 'customer@example.com',
            recipient_name: 'Customer',
            status: 'sent' as const,
            status_at: at,
            provider_message_id: null,
            error: null,
            pdf_sha256: null,
            pdf_key: null,
            created_at: at,
            attempted_at: at,
          })),
        )
        .execute();
    }
    await db.destroy();
    const time = async (method: 'GET' | 'POST', url: string) => {
      const started = performance.now();
      const res = await app.inject({ method, url, headers });
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
      return { ms: Math.round(performance.now() - started), body: res.body };
    };
    const preview = await time('GET', '/api/notices/delete-all-notices/preview');
    const deleted = await time('POST', '/api/notices/delete-all-notices');
    return {
      database: label,
      records: RECORDS,
      served: served.length,
      'preview ms': preview.ms,
      'Delete All ms': deleted.ms,
      answer: deleted.body,
    };
  } finally {
    await app.close();
    await target.cleanup();
  }
}

const figures = [await benchDeleteAll('SQLite')];
if (await postgresReachable()) figures.push(await benchDeleteAll('PostgreSQL'));
table(figures);
