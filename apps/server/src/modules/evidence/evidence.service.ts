import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { EvidenceDelivery, EvidencePostProof, EvidenceRecord } from '@notice-desk/contract/evidence';
import type { LegalBasis } from '@notice-desk/contract/service-dates';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import { safeFileName } from '../../lib/file-names.ts';
import { toE164 } from '../../lib/send-errors.ts';
import type { NoticeSigner } from '../../lib/pdf/signing.ts';
import { StoredFileMissing, type FileStore } from '../../lib/storage.ts';
import { nowIso, shownAt } from '../../lib/time.ts';
import { zipStream } from '../../lib/zip-stream.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import * as campaigns from '../campaigns/campaigns.repository.ts';
import type { PdfsService } from '../pdfs/pdfs.service.ts';
import { recordKinds, type RecordKindInfo } from '../records/record-kinds.ts';
import * as postArticles from '../post/post.repository.ts';
import * as records from '../records/records.repository.ts';
import * as deliveries from '../sending/deliveries.repository.ts';
import * as serviceFacts from '../service-dates/service-dates.repository.ts';
import { SERVICE_DEFAULTS, ServiceDatesService } from '../service-dates/service-dates.service.ts';
import { certificateDocx, certificateHtml, type CertificateFacts } from './section-63.ts';
import { pageEventWords, responseWords, serviceWords } from './service-words.ts';

const PAGE = 500;
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

interface Bundle {
  name: string;
  stream: Readable;
}

/** What the section 63 certificate says of the computer resource, and the manifest's signer. */
export interface CourtSettings {
  /** FIRM_NAME: on the summary and the certificate. */
  firmName: string;
  /** "Notice Desk 1.0.0". */
  product: string;
  /** "SQLite" or "PostgreSQL". */
  database: string;
  /** The host as configured (APP_URL's). */
  host: string;
  /** NOTICE_SIGNING_*: when set, manifest.json carries a detached CMS signature, manifest.json.p7s. */
  signer?: NoticeSigner | undefined;
}

export const COURT_DEFAULTS: CourtSettings = {
  firmName: 'Notice Desk',
  product: 'Notice Desk',
  database: 'SQLite',
  host: 'localhost',
};

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
    private readonly court: CourtSettings = COURT_DEFAULTS,
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
    const { zip, stream, addFile } = zipStream();
    const manifest: { file: string; sha256: string }[] = [];
    /** What each record produced is, for the certificate. */
    const produced: CertificateFacts['files'] = [];
    const list = (file: string, hash: string, what?: string) => {
      manifest.push({ file, sha256: hash });
      if (what) produced.push({ file, what, sha256: hash });
    };
    const add = (file: string, data: Buffer, what?: string) => {
      list(file, sha256(data), what);
      zip.addBuffer(data, file, { compress: !file.endsWith('.pdf') });
    };
    /** The kept file going into the zip now; the next one is read meanwhile. */
    let writing = Promise.resolve();
    /**
     * A kept file (a served PDF, a post proof), checked against its recorded hash: the zip lets go of
     * its bytes once written, and the next waits for that, so a bundle holds one or two files at a time,
     * never the campaign's PDFs.
     */
    const addKept = async (file: string, data: Buffer, hash: string, what?: string) => {
      await writing;
      list(file, hash, what);
      writing = addFile(file, data, { compress: !file.endsWith('.pdf') });
      // Awaited by the next file or the end; until then its failure is not left unhandled.
      writing.catch(() => undefined);
    };
    (async () => {
      const evidence: SummaryRecord[] = [];
      const addedPdfs = new Set<string>();
      /** When each PDF in the bundle was made (its kept file's time), by its name in the bundle. */
      const renderedAts = new Map<string, string | null>();
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
        const proofs = await postArticles.proofsForDeliveries(
          this.db,
          attempts.filter((d) => (d.channel as string) === 'post').map((d) => d.id),
        );
        for (const campaignId of new Set(page.map((r) => r.campaign_id)))
          if (!bases.has(campaignId))
            bases.set(campaignId, (await this.serviceDates.forCampaign(info.kind, campaignId)).basis);
        for (const row of page) {
          const mine = attempts.filter((d) => d.record_id === row.id);
          const served: SummaryRecord['deliveries'] = [];
          for (const d of mine) {
            let pdfFile: string | null = null;
            let renderedAt: string | null = null;
            if (d.pdf_key && d.pdf_sha256) {
              pdfFile = `pdfs/${d.pdf_sha256}.pdf`;
              if (!addedPdfs.has(pdfFile)) {
                const pdf = await this.store.readBuffer(d.pdf_key).catch((err: unknown) => {
                  // A store that does not answer fails the bundle; only a file that is gone is left out.
                  if (err instanceof StoredFileMissing) return null;
                  throw err;
                });
                // Only the very bytes that went out: a file that is gone or changed is not evidence.
                if (pdf && sha256(pdf) === d.pdf_sha256) {
                  renderedAt = (await this.store.modifiedAt(d.pdf_key))?.toISOString() ?? null;
                  renderedAts.set(pdfFile, renderedAt);
                  await addKept(
                    pdfFile,
                    pdf,
                    d.pdf_sha256,
                    `The notice PDF served to ${reference(info, row) || 'the record'} ${row.custName ?? ''}`.trim() +
                      ` by ${channelLabel[d.channel]}, the very file sent.`,
                  );
                  addedPdfs.add(pdfFile);
                } else pdfFile = null;
              } else renderedAt = renderedAts.get(pdfFile) ?? null;
            }
            // Post: each AD card or returned envelope kept for the article, its bytes checked as the PDF's are.
            const postProofs: EvidencePostProof[] = [];
            for (const proof of proofs.filter((p) => p.delivery_id === d.id)) {
              const file = `post/${proof.sha256}.${proof.file_key.split('.').pop()}`;
              if (!addedPdfs.has(file)) {
                const scan = await this.store.readBuffer(proof.file_key).catch(() => null);
                if (!scan || sha256(scan) !== proof.sha256) continue;
                await addKept(file, scan, proof.sha256);
                addedPdfs.add(file);
              }
              postProofs.push({
                file,
                sha256: proof.sha256,
                deliveredOn: proof.delivered_on,
                uploadedAt: proof.created_at,
              });
            }
            served.push({
              ...(postProofs.length > 0 ? { postProofs } : {}),
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
              renderedAt,
              history: events
                .filter((e) => e.delivery_id === d.id)
                .map((e) => ({
                  status: e.status,
                  at: e.at,
                  recordedAt: e.recorded_at,
                  detail: e.detail,
                  refused: e.refused,
                  source: sourceOf(e.provider_event),
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
      await writing;
      const generatedAt = nowIso();
      const { timeZone } = this.where;
      const records = evidence.map(({ asks: _asks, ...record }) => record);
      add(
        'deliveries.json',
        Buffer.from(JSON.stringify({ title, generatedAt, records }, null, 2)),
        'The delivery log: every delivery with its recipient, provider message id, status history and the SHA-256 of its PDF, and the notice page’s receipt events (visits, acknowledgements, answers).',
      );
      add(
        'summary.pdf',
        await this.pdfs.printHtml(
          summaryHtml(title, generatedAt, evidence, info, timeZone, this.court.firmName),
        ),
        'The same delivery log and receipt events as a document for people, times in IST.',
      );
      const times = evidence
        .flatMap((record) => [
          ...record.deliveries.flatMap((d) => [d.statusAt, ...d.history.map((h) => h.at)]),
          ...record.noticePage.events.map((event) => event.at),
          ...record.noticePage.responses.map((response) => response.at),
        ])
        .filter((at) => Number.isFinite(Date.parse(at)))
        .sort();
      const facts: CertificateFacts = {
        title,
        firmName: this.court.firmName,
        product: this.court.product,
        database: this.court.database,
        host: this.court.host,
        files: produced,
        period: times.length
          ? { from: shownAt(times[0]!, timeZone), to: shownAt(times.at(-1)!, timeZone) }
          : null,
        generatedAt: shownAt(generatedAt, timeZone),
      };
      add('section-63-certificate.pdf', await this.pdfs.printHtml(certificateHtml(facts)));
      add('section-63-certificate.docx', await certificateDocx(facts));
      // The manifest lists every other file; its own hash is what a court would note down.
      const manifestJson = Buffer.from(JSON.stringify({ title, generatedAt, files: manifest }, null, 2));
      zip.addBuffer(manifestJson, 'manifest.json');
      if (this.court.signer)
        zip.addBuffer(await this.court.signer.signDetached(manifestJson), 'manifest.json.p7s');
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

const channelLabel = { email: 'E-mail', whatsapp: 'WhatsApp', sms: 'SMS', post: 'Post' } as const;

/** Who reported a delivery's status: the sender itself, a provider's webhook, or the bounce mailbox. */
function sourceOf(providerEvent: string | null): string {
  if (!providerEvent) return 'Notice Desk (sender)';
  if (/^(?:bounced:|delivered:)?imap:/.test(providerEvent)) return 'Mailbox (delivery report)';
  if (/^(?:bounced:|delivered:)?(?:sendgrid|postmark):/.test(providerEvent))
    return 'Provider webhook (e-mail)';
  return 'Provider webhook (WhatsApp)';
}

const statusWords: Record<string, string> = {
  queued: 'Queued to send',
  outbox: 'Kept in the outbox (no provider set)',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
  bounced: 'Bounced',
  not_serviceable: 'Not serviceable',
};

const pageEventNames: Record<string, string> = {
  link_opened: 'Opened',
  check_failed: 'Check failed',
  locked: 'Locked',
  verified: 'Opened after the check',
  pdf_viewed: 'PDF downloaded',
  acknowledged: 'Acknowledged',
  disputed: 'Disputed',
  settle_requested: 'Asked to settle',
  callback_requested: 'Asked for a call back',
  payment_link_opened: 'Payment link opened',
};

/** One line of a record's timeline. */
interface TimelineEntry {
  at: string;
  event: string;
  detail: string;
  source: string;
  sha256: string | null;
}

/**
 * A record's timeline, oldest first: its notice rendered (the kept file made), each delivery's statuses
 * with who reported them (the sender, a provider's webhook, the bounce mailbox), and what the recipient
 * did on the notice page.
 */
function timelineOf(record: SummaryRecord, timeZone: string): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const rendered = new Set<string>();
  for (const d of record.deliveries) {
    const channel = channelLabel[d.channel];
    if (d.pdfSha256 && d.renderedAt && !rendered.has(d.pdfSha256)) {
      rendered.add(d.pdfSha256);
      entries.push({
        at: d.renderedAt,
        event: 'Rendered',
        detail: 'The notice PDF made and kept',
        source: 'Notice Desk',
        sha256: d.pdfSha256,
      });
    }
    for (const h of d.history)
      entries.push({
        at: h.at,
        event: statusWords[h.status] ?? h.status,
        detail: [
          `${channel} to ${d.recipient}${d.recipientName ? ` (${d.recipientName})` : ''}`,
          h.status === 'sent' && d.providerMessageId ? `message id ${d.providerMessageId}` : '',
          h.detail ?? '',
          h.refused ? `not applied: ${h.refused}` : '',
        ]
          .filter(Boolean)
          .join('; '),
        source: h.source ?? 'Notice Desk',
        sha256: ['sent', 'delivered', 'read'].includes(h.status) ? d.pdfSha256 : null,
      });
    for (const proof of d.postProofs ?? [])
      entries.push({
        at: proof.uploadedAt,
        event: 'Proof of delivery kept',
        detail: `${proof.file}${proof.deliveredOn ? `, the AD card dated ${proof.deliveredOn}` : ''}`,
        source: 'Uploaded scan',
        sha256: proof.sha256,
      });
  }
  const served = record.deliveries.findLast((d) => d.pdfSha256)?.pdfSha256 ?? null;
  for (const event of record.noticePage.events) {
    const sha = /\b[0-9a-f]{64}\b/.exec(event.detail ?? '')?.[0];
    // The hash has a column of its own: the sentence leaves it out.
    const words = pageEventWords(event, { asks: record.asks, pdfSha256: null, timeZone }).replace(
      / \(SHA-256 [0-9a-f]{64}\)/,
      '',
    );
    const from = [event.ip, event.userAgent].filter(Boolean).join(', ');
    entries.push({
      at: event.at,
      event: pageEventNames[event.event] ?? event.event,
      detail: from ? `${words} From ${from}.` : words,
      source: 'Notice page',
      sha256: sha ?? (['pdf_viewed', 'acknowledged'].includes(event.event) ? served : null),
    });
  }
  return entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** Long tokens (a message id, an address) kept whole on a line: a hyphen in them is no place to break. */
const unbroken = (html: string) =>
  html.replace(/[^\s<>]{16,}/g, (token) => `<span class="nowrap">${token}</span>`);

type SummaryRecord = EvidenceRecord & {
  asks: 'mobile' | 'account';
  deliveries: (EvidenceDelivery & { renderedAt?: string | null })[];
};

/**
 * The summary a court reads: the firm, then per record its timeline, every time in TIME_ZONE as
 * DD-MM-YYYY HH:mm:ss IST, each with its source and the SHA-256 of the file. Landscape, so a hash fits
 * its column whole; no cell breaks a word or a number (a long one runs on rather than splits).
 */
function summaryHtml(
  title: string,
  generatedAt: string,
  evidence: SummaryRecord[],
  info: RecordKindInfo,
  timeZone: string,
  firmName: string,
): string {
  const e = (text: string | null | undefined) => escapeHtml(text ?? '');
  const referenceLabel = info.kind === 'notice' ? 'Loan No.' : 'Mask No.';
  const sections = evidence.map((record) => {
    const timeline = timelineOf(record, timeZone);
    const rows = timeline.length
      ? timeline
          .map(
            (entry) => `<tr>
              <td class="time">${e(shownAt(entry.at, timeZone))}</td>
              <td class="event"><b>${e(entry.event)}</b>${entry.detail ? `<br><small>${unbroken(e(entry.detail))}</small>` : ''}</td>
              <td class="source">${e(entry.source)}</td>
              <td class="hash">${e(entry.sha256) || '—'}</td>
            </tr>`,
          )
          .join('')
      : '<tr><td colspan="4">Not sent on any channel.</td></tr>';
    const answers = record.noticePage.responses.map(
      (response) => `<li>${e(responseWords(response, timeZone))}</li>`,
    );
    return `<section>
      <h2>${e(record.custName) || 'Unnamed customer'} — ${referenceLabel} ${e(record.reference) || '—'}</h2>
      <p><b>Service:</b> ${e(serviceWords(record.service, timeZone))}</p>
      <table>
        <thead><tr><th class="time">Time (IST)</th><th>Event</th><th class="source">Source</th><th class="hash-head">SHA-256 of the PDF</th></tr></thead>
        <tbody>${rows}</tbody>
      </table>
      ${answers.length ? `<p><b>Answers from the notice page:</b></p><ul>${answers.join('')}</ul>` : ''}
    </section>`;
  });
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    @page { size: A4 landscape; margin: 12mm; }
    body { font: 9.5pt/1.35 'Notice Sans', sans-serif; margin: 0; color: #000; }
    h1 { font-size: 14pt; margin: 0 0 4pt; } h2 { font-size: 11pt; margin: 14pt 0 4pt; }
    table { border-collapse: collapse; width: 100%; } tr { break-inside: avoid; }
    th, td { border: 1px solid #999; padding: 3pt 4pt; vertical-align: top; text-align: left;
      overflow-wrap: normal; word-break: keep-all; hyphens: none; }
    .time { white-space: nowrap; width: 1%; } .source { white-space: nowrap; width: 1%; }
    .hash { font-family: monospace; font-size: 7.5pt; white-space: nowrap; width: 1%; }
    .hash-head { white-space: nowrap; width: 1%; } .nowrap { white-space: nowrap; }
    small { font-size: 8pt; }
  </style></head><body>
    <h1>Evidence of service — ${e(title)}</h1>
    <p>Issued by <b>${e(firmName)}</b>. Generated ${e(shownAt(generatedAt, timeZone))}. ${evidence.length} record(s). Every time is in IST. Each PDF in this bundle is the exact file sent; its SHA-256 is listed here, in manifest.json and in section-63-certificate.pdf.</p>
    ${sections.join('')}
  </body></html>`;
}
