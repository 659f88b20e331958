import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { EvidenceDelivery, EvidenceRecord } from '@notice-desk/contract/evidence';
import type { LegalBasis } from '@notice-desk/contract/service-dates';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import { safeFileName } from '../../lib/file-names.ts';
import { toE164 } from '../../lib/send-errors.ts';
import type { FileStore } from '../../lib/storage.ts';
import { nowIso } from '../../lib/time.ts';
import { zipStream } from '../../lib/zip-stream.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import * as campaigns from '../campaigns/campaigns.repository.ts';
import type { PdfsService } from '../pdfs/pdfs.service.ts';
import { recordKinds, type RecordKindInfo } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import * as deliveries from '../sending/deliveries.repository.ts';
import * as serviceFacts from '../service-dates/service-dates.repository.ts';
import { SERVICE_DEFAULTS, ServiceDatesService } from '../service-dates/service-dates.service.ts';
import { pageEventWords, responseWords, serviceWords } from './service-words.ts';

const PAGE = 500;
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

interface Bundle {
  name: string;
  stream: Readable;
}

/**
 * Evidence bundles: what was served, when and to whom, in a form a court can check. A zip holds the
 * exact PDFs that went out (kept by content hash, and checked against the hash recorded at sending),
 * deliveries.json (every delivery with its status history), summary.pdf (the same for people) and
 * manifest.json (the SHA-256 of every file in the bundle). Each record carries when it was served and
 * the day to respond by, and what happened on its notice page (events and answers).
 */
export class EvidenceService {
  constructor(
    private readonly db: Database,
    private readonly pdfs: PdfsService,
    private readonly store: FileStore,
    /** DEFAULT_COUNTRY_CODE: what a WhatsApp number without one was sent with. */
    private readonly defaultCountryCode: string,
    private readonly serviceDates = new ServiceDatesService(db, SERVICE_DEFAULTS),
    /** Times in summary.pdf are read in TIME_ZONE. */
    private readonly where: { timeZone: string } = SERVICE_DEFAULTS,
  ) {}

  /**
   * One record's bundle, live or archived (a delete archives served records: their evidence stays).
   * `actorId` is who asks: the owner, or an ADMIN downloading from the archive.
   */
  async forRecord(ownerId: string, kind: RecordKind, id: string, actorId = ownerId): Promise<Bundle> {
    const info = recordKinds[kind];
    const row = await records.findRecordIncludingArchived(this.db, info, ownerId, id);
    if (!row) throw notFound(info.label);
    await appendAudit(this.db, {
      actorId,
      action: 'export.evidence',
      subjectType: kind,
      subjectId: id,
      summary: `Evidence for ${info.label.toLowerCase()} of ${row.custName || 'an unnamed customer'}`,
    });
    const title = `${info.label} ${reference(info, row)} ${row.custName ?? ''}`.trim();
    return this.bundle(
      safeName(`evidence ${title}`),
      title,
      async function* () {
        yield [row];
      },
      info,
    );
  }

  /** Every record of a campaign, live or archived, and of an archived campaign too. */
  async forCampaign(ownerId: string, id: string, actorId = ownerId): Promise<Bundle> {
    const campaign = await campaigns.findCampaignIncludingArchived(this.db, ownerId, id);
    if (!campaign) throw notFound('Campaign');
    const info = recordKinds[campaign.kind];
    await appendAudit(this.db, {
      actorId,
      action: 'export.evidence',
      subjectType: 'campaign',
      subjectId: id,
      summary: `Evidence for campaign ${campaign.name}`,
    });
    const db = this.db;
    return this.bundle(
      safeName(`evidence ${campaign.name}`),
      `Campaign ${campaign.name}`,
      async function* () {
        for (let after = ''; ;) {
          const page = await records.listCampaignRecordsAfter(db, info, ownerId, id, after, PAGE, 'included');
          if (page.length > 0) yield page;
          if (page.length < PAGE) return;
          after = page.at(-1)!.id;
        }
      },
      info,
    );
  }

  private bundle(
    name: string,
    title: string,
    pages: () => AsyncGenerator<records.RecordRow[]>,
    info: RecordKindInfo,
  ): Bundle {
    const { zip, stream, room } = zipStream();
    const manifest: { file: string; sha256: string }[] = [];
    const add = (file: string, data: Buffer) => {
      manifest.push({ file, sha256: sha256(data) });
      zip.addBuffer(data, file, { compress: !file.endsWith('.pdf') });
    };
    (async () => {
      const evidence: (EvidenceRecord & { asks: 'mobile' | 'account' })[] = [];
      const addedPdfs = new Set<string>();
      const bases = new Map<string, LegalBasis | null>();
      for await (const page of pages()) {
        const attempts = await deliveries.deliveriesForRecords(
          this.db,
          page.map((r) => r.id),
        );
        const ids = page.map((r) => r.id);
        const [events, dates, pageEvents, responses] = await Promise.all([
          deliveries.eventsForDeliveries(
            this.db,
            attempts.map((d) => d.id),
          ),
          this.serviceDates.datesFor(info.kind, page),
          serviceFacts.pageEventsForRecords(this.db, ids),
          serviceFacts.responsesForRecords(this.db, ids),
        ]);
        for (const campaignId of new Set(page.map((r) => r.campaign_id)))
          if (!bases.has(campaignId))
            bases.set(campaignId, (await this.serviceDates.forCampaign(info.kind, campaignId)).basis);
        for (const row of page) {
          const mine = attempts.filter((d) => d.record_id === row.id);
          const served: EvidenceDelivery[] = [];
          for (const d of mine) {
            let pdfFile: string | null = null;
            if (d.pdf_key && d.pdf_sha256) {
              pdfFile = `pdfs/${d.pdf_sha256}.pdf`;
              if (!addedPdfs.has(pdfFile)) {
                const pdf = await this.store.readBuffer(d.pdf_key).catch(() => null);
                // Only the very bytes that went out: a file that is gone or changed is not evidence.
                if (pdf && sha256(pdf) === d.pdf_sha256) {
                  add(pdfFile, pdf);
                  addedPdfs.add(pdfFile);
                  await room();
                } else pdfFile = null;
              }
            }
            served.push({
              channel: d.channel,
              recipient: d.channel === 'email' ? d.recipient : this.whatsappNumberSent(d.recipient),
              recipientName: d.recipient_name,
              status: d.status,
              statusAt: d.status_at,
              providerMessageId: d.provider_message_id,
              error: d.error,
              pdfSha256: d.pdf_sha256,
              pdfFile,
              mediaId: d.media_id,
              history: events
                .filter((e) => e.delivery_id === d.id)
                .map((e) => ({
                  status: e.status,
                  at: e.at,
                  recordedAt: e.recorded_at,
                  detail: e.detail,
                  refused: e.refused,
                })),
            });
          }
          evidence.push({
            kind: info.kind,
            _id: row.id,
            custName: row.custName ?? '',
            reference: reference(info, row),
            deliveries: served,
            service: {
              ...dates.get(row.id)!,
              legalBasis: bases.get(row.campaign_id)?.label ?? null,
              periodDays: bases.get(row.campaign_id)?.periodDays ?? null,
            },
            noticePage: {
              events: pageEvents
                .filter((e) => e.record_id === row.id)
                .map((e) => ({
                  event: e.event,
                  at: e.at,
                  channel: e.channel,
                  ip: e.ip,
                  userAgent: e.user_agent,
                  detail: e.detail,
                })),
              responses: responses
                .filter((r) => r.record_id === row.id)
                .map((r) => ({
                  kind: r.kind,
                  text: r.text,
                  at: r.created_at,
                  file: r.file_key ? { name: r.file_name, type: r.file_type, sha256: r.file_sha256 } : null,
                  handled: r.handled_at ? { at: r.handled_at, by: r.handled_by } : null,
                })),
            },
            asks: row.custMobileNo ? 'mobile' : 'account',
          });
        }
      }
      const generatedAt = nowIso();
      const records = evidence.map(({ asks: _asks, ...record }) => record);
      add('deliveries.json', Buffer.from(JSON.stringify({ title, generatedAt, records }, null, 2)));
      add(
        'summary.pdf',
        await this.pdfs.printHtml(summaryHtml(title, generatedAt, evidence, info, this.where.timeZone)),
      );
      // The manifest lists every other file; its own hash is what a court would note down.
      zip.addBuffer(
        Buffer.from(JSON.stringify({ title, generatedAt, files: manifest }, null, 2)),
        'manifest.json',
      );
      zip.end();
    })().catch((err: unknown) => stream.destroy(err as Error));
    return { name: `${name}.zip`, stream };
  }

  /**
   * The number a WhatsApp message went to, as the sender wrote it (E.164 digits: 9876543210 went to
   * 919876543210). A number the sender could not read was never sent to: it stays as recorded.
   */
  private whatsappNumberSent(recipient: string): string {
    try {
      return toE164(recipient, this.defaultCountryCode);
    } catch {
      return recipient;
    }
  }
}

function reference(info: RecordKindInfo, row: Record<string, string | undefined>): string {
  return (info.kind === 'notice' ? row.loanNo : row.maskNo) ?? '';
}

const safeName = (name: string): string => safeFileName(name, 100) || 'evidence';

const channelLabel = { email: 'E-mail', whatsapp: 'WhatsApp', sms: 'SMS' } as const;

/** The record's notice page in words: each event a sentence, each answer with its text shown as text. */
function noticePageHtml(record: EvidenceRecord & { asks: 'mobile' | 'account' }, timeZone: string): string {
  const { events, responses } = record.noticePage;
  if (events.length === 0 && responses.length === 0) return '<p><b>Notice page:</b> not visited.</p>';
  const pdfSha256 = record.deliveries.findLast((d) => d.pdfSha256)?.pdfSha256 ?? null;
  const lines = [
    ...events.map((event) => {
      const from = [event.ip, event.userAgent].filter(Boolean).join(', ');
      return `${escapeHtml(pageEventWords(event, { asks: record.asks, pdfSha256, timeZone }))}${from ? ` <small>(${escapeHtml(from)})</small>` : ''}`;
    }),
    ...responses.map((response) => escapeHtml(responseWords(response, timeZone))),
  ];
  return `<p><b>Notice page:</b></p><ul>${lines.map((line) => `<li>${line}</li>`).join('')}</ul>`;
}

/** The summary people read: per record, each delivery, its recipient, message id, PDF hash and history. */
function summaryHtml(
  title: string,
  generatedAt: string,
  evidence: (EvidenceRecord & { asks: 'mobile' | 'account' })[],
  info: RecordKindInfo,
  timeZone: string,
): string {
  const e = (text: string | null | undefined) => escapeHtml(text ?? '');
  const referenceLabel = info.kind === 'notice' ? 'Loan No.' : 'Mask No.';
  const sections = evidence.map((record) => {
    const rows = record.deliveries.length
      ? record.deliveries
          .map(
            (d) => `<tr>
              <td>${channelLabel[d.channel]}</td>
              <td>${e(d.recipient)}<br><small>${e(d.recipientName)}</small></td>
              <td>${e(d.status)}<br><small>${e(d.statusAt)}</small></td>
              <td class="mono">${e(d.providerMessageId) || '—'}</td>
              <td class="mono">${e(d.pdfSha256) || '—'}</td>
              <td>${d.history.map((h) => `${e(h.at)} ${e(h.status)}${h.detail ? ` (${e(h.detail)})` : ''}${h.refused ? ` <b>refused</b>: ${e(h.refused)}` : ''}`).join('<br>')}${d.error ? `<br><b>Error:</b> ${e(d.error)}` : ''}</td>
            </tr>`,
          )
          .join('')
      : '<tr><td colspan="6">Not sent on any channel.</td></tr>';
    return `<section>
      <h2>${e(record.custName) || 'Unnamed customer'} — ${referenceLabel} ${e(record.reference) || '—'}</h2>
      <table>
        <thead><tr><th>Channel</th><th>Recipient</th><th>Status</th><th>Provider message id</th><th>PDF SHA-256</th><th>History (UTC)</th></tr></thead>
        <tbody>${rows}</tbody>
      </table>
      <p><b>Service:</b> ${e(serviceWords(record.service, timeZone))}</p>
      ${noticePageHtml(record, timeZone)}
    </section>`;
  });
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body { font: 10pt sans-serif; margin: 12mm; }
    h1 { font-size: 14pt; } h2 { font-size: 11pt; margin: 14pt 0 4pt; }
    table { border-collapse: collapse; width: 100%; } section { break-inside: avoid; }
    th, td { border: 1px solid #999; padding: 3pt; vertical-align: top; text-align: left; overflow-wrap: anywhere; }
    .mono { font-family: monospace; font-size: 8pt; }
  </style></head><body>
    <h1>Evidence of service — ${e(title)}</h1>
    <p>Generated ${e(generatedAt)} (UTC). ${evidence.length} record(s). Each PDF in this bundle is the exact file sent; its SHA-256 is listed here and in manifest.json.</p>
    ${sections.join('')}
  </body></html>`;
}
