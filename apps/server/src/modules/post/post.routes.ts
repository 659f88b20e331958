import { z } from 'zod';
import { articleAssignments, labelLayouts } from '@notice-desk/contract/post';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App, AppContext } from '../../app-context.ts';
import { attachment } from '../../lib/content-disposition.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';
import { readUploadForm } from '../../plugins/upload-form.ts';
import type { IncomingFile } from '../uploads/uploads.service.ts';
import { recordKinds } from '../records/record-kinds.ts';
import { readArticleSheet, readTrackingSheet, unzipProofs } from './post-files.ts';

const params = z.object({ id: recordId });
const tags = ['post'];
const PDF = 'application/pdf';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const sheetForm = z.object({
  file: z.file().describe('The .xlsx workbook (first sheet) or .csv file.'),
});
const proofForm = z.object({
  file: z.file().describe('The scan: a PDF, JPEG, PNG or WebP (judged by its content), at most 10 MB.'),
  deliveredOn: z
    .string()
    .optional()
    .describe('The date on the AD card, YYYY-MM-DD: the letter is delivered that day.'),
});
const zipForm = z.object({
  file: z.file().describe('A .zip of scans, each named by its article number (EE123456785IN.pdf).'),
});
const trackingJson = z.object({
  events: z
    .array(
      z.object({
        articleNumber: z.string().max(40),
        event: z.string().max(500),
        office: z.string().max(200).default(''),
        at: z.iso.datetime({ offset: true, error: 'at must be an ISO date and time with its zone.' }),
      }),
      { error: 'events must be a list of { articleNumber, event, office, at }.' },
    )
    .min(1)
    .max(10_000),
});

export const PROOF_MAX_BYTES = 10 * 1024 * 1024;
const tooLarge = (what: string, mb: number) =>
  new AppError(413, 'FILE_TOO_LARGE', `The ${what} is larger than ${mb} MB; send a smaller file.`);

/** Reads an uploaded file into memory up to `max` bytes (a larger one is a 413 in words). */
const readUpTo =
  (max: number, what: string) =>
  ({ filename, stream }: IncomingFile): Promise<{ name: string; data: Buffer }> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= max) chunks.push(chunk);
      });
      stream.on('error', reject);
      stream.on('end', () => {
        if (size > max || (stream as { truncated?: boolean }).truncated)
          reject(tooLarge(what, max / 1024 / 1024));
        else resolve({ name: filename, data: Buffer.concat(chunks) });
      });
    });

const readForm = (req: Parameters<typeof readUploadForm>[0], max: number, what: string) =>
  readUploadForm(req, readUpTo(max, what), async () => undefined, { fileSizeLimit: max + 1 }).catch(
    (err: unknown) => {
      throw (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE'
        ? tooLarge(what, max / 1024 / 1024)
        : err;
    },
  );

/** A campaign's post: downloads (print file, labels, booking list), article numbers, tracking, proofs. */
export function postRoutes(app: App, { post, guards, config }: AppContext): void {
  guardRoutes(app, guards.requireUser);
  const sheetMax = config.uploadMaxBytes;

  app.get(
    '/api/campaigns/:id/post',
    {
      schema: {
        tags,
        summary: "List a campaign's post records",
        description:
          'The records whose Mode Of Dispatch names Speed Post, registered post (RPAD) or courier, in print order (PIN code), each with its address block, article number, post status and proof; and the records per channel that Mode Of Dispatch names, with the values no spelling matched (flagged, never guessed).',
        params,
      },
    },
    (req) => post.overview(req.user._id, req.params.id),
  );

  const downloads = [
    {
      url: '/api/campaigns/:id/post/print.pdf',
      summary: 'Download the print file',
      description:
        'Streams one PDF of every post record’s notice in PIN code order. Each letter: a carrier page with the address block where the window of the envelope POST_ENVELOPE (DL or C5) shows it, the article number as text and Code 128 barcode once known, its blank back, then the notice unchanged from a right-hand (odd) page, padded to an even count so the next letter starts on a right-hand page when printed on both sides.',
      type: PDF,
      open: (ownerId: string, id: string) => post.printFile(ownerId, id),
    },
    {
      url: '/api/campaigns/:id/post/booking.xlsx',
      summary: 'Download the booking list (.xlsx)',
      description:
        'Streams the booking list for the post office in print order: S.No, article number, article type, sender (POST_SENDER), addressee, address lines, city, state, PIN code, mobile, weight (POST_WEIGHT_GRAMS) and reference (the loan number).',
      type: XLSX,
      open: (ownerId: string, id: string) => post.bookingList(ownerId, id, 'xlsx'),
    },
    {
      url: '/api/campaigns/:id/post/booking.csv',
      summary: 'Download the booking list (.csv)',
      description:
        'The booking list as UTF-8 CSV (with a byte order mark, as Excel reads it), the same columns as the .xlsx.',
      type: 'text/csv; charset=utf-8',
      open: (ownerId: string, id: string) => post.bookingList(ownerId, id, 'csv'),
    },
  ] as const;
  for (const { url, summary, description, type, open } of downloads)
    app.get(url, { schema: { tags, summary, description, params } }, async (req, reply) => {
      const { name, stream } = await open(req.user._id, req.params.id);
      return reply.type(type).header('content-disposition', attachment(name)).send(stream);
    });

  app.get(
    '/api/campaigns/:id/post/labels.pdf',
    {
      schema: {
        tags,
        summary: 'Download address labels',
        description:
          'Streams A4 label sheets in print order: layout 2x7 (14 a sheet) or 3x8 (24 a sheet), each label the addressee, the address lines and the article number once known.',
        params,
        querystring: z.object({
          layout: z
            .enum(labelLayouts, { error: `layout must be ${labelLayouts.join(' or ')}.` })
            .default('2x7'),
        }),
      },
    },
    async (req, reply) => {
      const { name, stream } = await post.labels(req.user._id, req.params.id, req.query.layout);
      return reply.type(PDF).header('content-disposition', attachment(name)).send(stream);
    },
  );

  app.post(
    '/api/campaigns/:id/post/articles',
    {
      config: { multipartForm: sheetForm },
      schema: {
        tags,
        summary: 'Give article numbers to post records',
        description:
          'JSON [{ loanNo, articleNumber }], or a .xlsx/.csv file with a loan number column (Loan No, Reference) and an article number column (Article Number, Barcode). Each number must be an Indian UPU S10 number (two letters, eight digits, the check digit, IN): a wrong one is refused naming the character at fault; a number used twice (in the list or before) is refused; nothing is saved unless every row is right. Each record given a number is booked: a post delivery, its notice PDF hashed.',
        params,
      },
    },
    async (req) => {
      if (!req.isMultipart()) {
        const parsed = articleAssignments.safeParse(req.body);
        if (!parsed.success)
          throw badRequest(parsed.error.issues[0]?.message ?? 'Send a list of { loanNo, articleNumber }.');
        return post.assignArticles(req.user._id, req.params.id, parsed.data);
      }
      await post.ownedCampaign(req.user._id, req.params.id);
      const form = await readForm(req, sheetMax, 'file');
      const rows = await readArticleSheet(form.file!, config);
      return post.assignArticles(req.user._id, req.params.id, rows);
    },
  );

  app.post(
    '/api/post/tracking',
    {
      config: { multipartForm: sheetForm },
      schema: {
        tags,
        summary: 'Import post tracking events',
        description:
          'A .xlsx/.csv tracking export (columns matched like a record import: article number, event, office, date and time, read in TIME_ZONE), or JSON { events: [{ articleNumber, event, office, at }] } as a provider’s API would give them. Each event moves its article forward only: booked → in transit → delivered, or returned with the reason (refused, left, no such person, insufficient address); every event is kept in the delivery’s trail once (the same event imported again is counted as replayed). Article numbers of no post delivery of the caller are listed, not an error.',
      },
    },
    async (req) => {
      if (!req.isMultipart()) {
        const parsed = trackingJson.safeParse(req.body);
        if (!parsed.success)
          throw badRequest(parsed.error.issues[0]?.message ?? 'Send a tracking file, or { events: [...] }.');
        return post.applyTrackingEvents(
          req.user._id,
          parsed.data.events.map((e) => ({ ...e, at: new Date(e.at).toISOString() })),
        );
      }
      const form = await readForm(req, sheetMax, 'file');
      const events = await readTrackingSheet(form.file!, config);
      return post.applyTrackingEvents(req.user._id, events);
    },
  );

  app.post(
    '/api/campaigns/:id/post/proofs',
    {
      config: { multipartForm: zipForm },
      schema: {
        tags,
        summary: 'Upload AD cards as a zip',
        description:
          'A .zip of scans (PDF, JPEG, PNG or WebP) each named by its article number: each kept, hashed and put in the evidence bundle beside its notice. Names of no article of this campaign are listed.',
        params,
      },
    },
    async (req) => {
      await post.ownedCampaign(req.user._id, req.params.id);
      const form = await readForm(req, sheetMax, 'zip');
      const files = await unzipProofs(form.file!.data, PROOF_MAX_BYTES);
      return post.addProofsZip(req.user._id, req.params.id, files);
    },
  );

  for (const info of Object.values(recordKinds))
    app.post(
      `${info.routes.base}/:id/post/proof`,
      {
        config: { multipartForm: proofForm },
        schema: {
          tags,
          summary: `Upload a ${info.label.toLowerCase()}'s AD card or returned envelope`,
          description: `The scan of the acknowledgement card or returned envelope of the ${info.label.toLowerCase()}'s post article (a PDF, JPEG, PNG or WebP judged by its bytes, at most 10 MB), with deliveredOn (YYYY-MM-DD) when it is an AD card: kept, hashed (SHA-256) and put in the evidence bundle beside the notice; the letter is then delivered on that date, which serves the record. 409 when the record has no article number yet.`,
          params,
        },
      },
      async (req) => {
        await post.ownedRecord(req.user._id, info.kind, req.params.id);
        const form = await readForm(req, PROOF_MAX_BYTES, 'scan');
        return post.addProof(req.user._id, info.kind, req.params.id, form.file!, form.fields.deliveredOn);
      },
    );
}
