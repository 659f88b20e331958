import type { Readable } from 'node:stream';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { safeFileName } from '../../lib/file-names.ts';
import type { FileStore } from '../../lib/storage.ts';
import { INDIAN_DEFAULTS, type DocumentLocale } from '../../lib/indian-format.ts';
import { zipStream } from '../../lib/zip-stream.ts';
import { builtinDateFormat } from '../../lib/xlsx/locale-formats.ts';
import { dateTimeCell, xlsxStream, type SheetCell } from '../../lib/xlsx/write-sheet.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import * as campaigns from '../campaigns/campaigns.repository.ts';
import { pdfFileName, type PdfsService } from '../pdfs/pdfs.service.ts';
import { recordKinds, type RecordKindInfo } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import * as deliveries from '../sending/deliveries.repository.ts';
import { SERVICE_DEFAULTS, ServiceDatesService } from '../service-dates/service-dates.service.ts';

const PAGE = 500;
const channelColumns = (label: string, timeZone: string) => [
  `${label} Status`,
  `${label} Time (${timeZone})`,
  `${label} Message Id`,
  `${label} PDF SHA-256`,
  `${label} Error`,
];

/** A campaign's report (.xlsx) and its PDFs (.zip), streamed page by page so memory stays flat at any size. */
export class ExportsService {
  constructor(
    private readonly db: Database,
    private readonly pdfs: PdfsService,
    private readonly store: FileStore,
    /** Report times are date cells of the wall-clock time in TIME_ZONE, drawn in LOCALE's short date. */
    private readonly where: DocumentLocale = INDIAN_DEFAULTS,
    private readonly serviceDates = new ServiceDatesService(db, SERVICE_DEFAULTS),
  ) {}

  /** The owner's campaign of this kind, its export written to the audit log (`what`: 'Report', 'PDFs'). */
  private async exportedCampaign(
    ownerId: string,
    kind: RecordKind,
    campaignId: string,
    action: 'export.report' | 'export.zip',
    what: string,
  ) {
    const campaign = await campaigns.findCampaign(this.db, ownerId, campaignId);
    if (!campaign) throw notFound('Campaign');
    if (campaign.kind !== kind)
      throw badRequest(`That campaign holds ${campaign.kind} records, not ${kind} records.`);
    await appendAudit(this.db, {
      actorId: ownerId,
      action,
      subjectType: 'campaign',
      subjectId: campaignId,
      summary: `${what} of campaign ${campaign.name}`,
    });
    return campaign;
  }

  /**
   * Every record's fields and, per channel, its latest status, time, provider message id and PDF hash;
   * then when it was served, by what, and the day its response period runs out.
   */
  async report(
    ownerId: string,
    kind: RecordKind,
    campaignId: string,
  ): Promise<{ name: string; stream: Readable }> {
    const campaign = await this.exportedCampaign(ownerId, kind, campaignId, 'export.report', 'Report');
    const info = recordKinds[kind];
    const db = this.db;
    const { timeZone, locale } = this.where;
    const timeFormat = `${builtinDateFormat(22, locale)}:ss`;
    const dateFormat = builtinDateFormat(14, locale) ?? 'dd-mm-yyyy';
    const serviceDates = this.serviceDates;
    async function* rows(): AsyncGenerator<SheetCell[]> {
      for await (const page of campaignPages(db, info, ownerId, campaignId)) {
        const dates = await serviceDates.datesFor(kind, page);
        const latest = new Map<string, deliveries.DeliveryRow>();
        for (const d of await deliveries.deliveriesForRecords(
          db,
          page.map((r) => r.id),
        ))
          latest.set(`${d.record_id}:${d.channel}`, d);
        for (const row of page) {
          const cells: SheetCell[] = info.fields.map((f) => row[f.key] ?? '');
          for (const channel of ['email', 'whatsapp'] as const) {
            const d = latest.get(`${row.id}:${channel}`);
            cells.push(
              d?.status ?? 'not sent',
              d ? dateTimeCell(d.status_at, timeZone, timeFormat) : '',
              d?.provider_message_id ?? '',
              d?.pdf_sha256 ?? '',
              d?.error ?? '',
            );
          }
          const service = dates.get(row.id);
          cells.push(
            service?.servedOn ? dateTimeCell(service.servedOn, timeZone, timeFormat) : '',
            service?.servedBy ?? '',
            // A calendar day, not an instant: drawn as it is, whatever the zone.
            service?.respondBy ? dateTimeCell(`${service.respondBy}T00:00:00.000Z`, 'UTC', dateFormat) : '',
          );
          yield cells;
        }
      }
    }
    const headers = [
      ...info.fields.map((f) => f.label),
      ...channelColumns('Email', timeZone),
      ...channelColumns('WhatsApp', timeZone),
      `Served On (${timeZone})`,
      'Served By',
      'Respond By',
    ];
    return { name: `${safeName(campaign.name)} report.xlsx`, stream: xlsxStream('Report', headers, rows()) };
  }

  /** A zip (stored, not deflated: PDFs are compressed already) of every record's PDF. */
  async zip(
    ownerId: string,
    kind: RecordKind,
    campaignId: string,
  ): Promise<{ name: string; stream: Readable }> {
    const campaign = await this.exportedCampaign(ownerId, kind, campaignId, 'export.zip', 'PDFs');
    const info = recordKinds[kind];
    const { zip, stream, room, addFile } = zipStream();
    const used = new Set<string>();
    const unique = (name: string) => {
      let candidate = name;
      for (let n = 2; used.has(candidate.toLowerCase()); n++)
        candidate = name.replace(/\.pdf$/, ` (${n}).pdf`);
      used.add(candidate.toLowerCase());
      return candidate;
    };
    // Notices that cannot print (a character no bundled font covers) are listed, with why, in not-printed.txt.
    const notPrinted: string[] = [];
    (async () => {
      for await (const page of campaignPages(this.db, info, ownerId, campaignId)) {
        const pdfs = await this.pdfs.pdfsFor(kind, page);
        for (const [i, row] of page.entries()) {
          const pdf = pdfs[i]!;
          if ('refused' in pdf) notPrinted.push(`${pdfFileName(kind, row)}: ${pdf.refused}`);
          // addFile, not yazl's addBuffer: the zip lets go of each PDF once written (addBuffer keeps all).
          else await addFile(unique(pdfFileName(kind, row)), pdf.pdf, { compress: false });
          // Let the client take what is queued before adding more: memory stays flat.
          await room();
        }
        if (stream.destroyed) break;
      }
      if (notPrinted.length > 0) zip.addBuffer(Buffer.from(`${notPrinted.join('\n')}\n`), 'not-printed.txt');
      zip.end();
    })().catch((err: unknown) => stream.destroy(err as Error));
    return { name: `${safeName(campaign.name)}.zip`, stream };
  }
}

const safeName = (name: string): string => safeFileName(name, 100) || 'campaign';

/** The campaign's records a page at a time, each page starting after the last one's final id. */
async function* campaignPages(
  db: Database,
  info: RecordKindInfo,
  ownerId: string,
  campaignId: string,
): AsyncGenerator<records.RecordRow[]> {
  for (let after = ''; ;) {
    const page = await records.listCampaignRecordsAfter(db, info, ownerId, campaignId, after, PAGE);
    if (page.length > 0) yield page;
    if (page.length < PAGE) return;
    after = page.at(-1)!.id;
  }
}
