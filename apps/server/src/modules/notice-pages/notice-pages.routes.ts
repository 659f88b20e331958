import { z } from 'zod';
import {
  noticeCodeParams,
  noticeIntroQuery,
  noticeResponsesQuery,
  RESPONSE_FILE_MAX_BYTES,
  verifyBody,
} from '@notice-desk/contract/notice-page';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../app-context.ts';
import { attachment, inline } from '../../lib/content-disposition.ts';
import { AppError } from '../../lib/errors.ts';
import { guardRoutesBy } from '../../plugins/authenticate.ts';
import { readUploadForm } from '../../plugins/upload-form.ts';
import type { IncomingFile } from '../uploads/uploads.service.ts';
import type { ResponseFile, Visit } from './notice-pages.service.ts';

const tags = ['notice-pages'];
const bearer =
  'Send the token the check gave as Authorization: Bearer <token>; a missing, malformed, forged, expired or other notice’s token answers 401.';

/** The form respond reads, for the API description (the route streams it). */
const respondForm = z.object({
  kind: z.enum(['dispute', 'settle', 'callback']),
  text: z.string().max(5000).optional(),
  file: z.file().describe('A PDF, JPEG, PNG or WebP of at most 10 MB (judged by its content).'),
});

const visitOf = (req: FastifyRequest, channel?: Visit['channel']): Visit => ({
  ip: req.ip,
  userAgent: req.headers['user-agent'],
  channel,
});

const fileTooLarge = () =>
  new AppError(413, 'FILE_TOO_LARGE', 'The file is larger than 10 MB; send a smaller file or a photo of it.');

/** Reads the file into memory up to the limit, draining the rest, so a file too large is a 413 in words. */
function readLimited({ filename, stream }: IncomingFile): Promise<ResponseFile> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= RESPONSE_FILE_MAX_BYTES) chunks.push(chunk);
    });
    stream.on('error', reject);
    stream.on('end', () => {
      if (size > RESPONSE_FILE_MAX_BYTES || (stream as { truncated?: boolean }).truncated)
        reject(fileTooLarge());
      else resolve({ name: filename, data: Buffer.concat(chunks) });
    });
  });
}

/**
 * The notice page's public routes (no sign-in; a check gives a short-lived token) and the staff's
 * Responses routes. Revoking a link is an ADMIN's.
 */
export function noticePagesRoutes(app: App, { noticePages, guards }: AppContext): void {
  guardRoutesBy(app, (route) =>
    route.url.startsWith('/api/public/')
      ? null
      : route.url.startsWith('/api/notice-links/')
        ? guards.requireAdmin
        : guards.requireUser,
  );

  app.get(
    '/api/public/notices/:code',
    {
      schema: {
        tags,
        summary: 'Open a notice page',
        description:
          'What the notice page may show before the check: the sender (FIRM_NAME, FIRM_ADDRESS), the notice’s language, which number’s last four digits are asked, and the lock while too many wrong answers hold it. A code that does not exist and a revoked one answer alike: available false. c names the channel of the message the link came in; each visit is kept as evidence.',
        params: noticeCodeParams,
        querystring: noticeIntroQuery,
      },
    },
    (req) => noticePages.intro(req.params.code, visitOf(req, req.query.c)),
  );

  app.post(
    '/api/public/notices/:code/verify',
    {
      schema: {
        tags,
        summary: 'Answer a notice page’s check',
        description:
          'Takes the last four digits of the registered mobile number (or of the loan or account number where the record has none) and answers a token good for 15 minutes. A wrong answer answers 400 with the tries left; the fifth in a row locks the link for an hour (429 with Retry-After). Wrong answers are counted, never kept.',
        params: noticeCodeParams,
        querystring: noticeIntroQuery,
        body: verifyBody,
      },
    },
    (req) => noticePages.verify(req.params.code, req.body.answer, visitOf(req, req.query.c)),
  );

  app.get(
    '/api/public/notices/:code/details',
    {
      schema: {
        tags,
        summary: 'Read a notice after the check',
        description: `The customer’s name, the account number’s ending, the amount due, the served PDF’s SHA-256, when it was acknowledged, and the payment link and number to call where they are set. ${bearer}`,
        params: noticeCodeParams,
      },
    },
    (req) => noticePages.details(req.params.code, req.headers.authorization, visitOf(req)),
  );

  app.get(
    '/api/public/notices/:code/pdf',
    {
      schema: {
        tags,
        summary: 'Download the served notice',
        description: `The very PDF that was served (the latest served delivery’s file: same bytes, same SHA-256); 404 when nothing was served yet. ${bearer}`,
        params: noticeCodeParams,
      },
    },
    async (req, reply) => {
      const { stream, name, sha256 } = await noticePages.pdf(
        req.params.code,
        req.headers.authorization,
        visitOf(req),
      );
      if (sha256) reply.header('x-content-sha256', sha256);
      return reply
        .type('application/pdf')
        .header('content-disposition', inline(name))
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );

  app.post(
    '/api/public/notices/:code/acknowledge',
    {
      schema: {
        tags,
        summary: 'Acknowledge a notice',
        description: `Records that the recipient says they received the notice (kept as evidence with the time, address and browser). ${bearer}`,
        params: noticeCodeParams,
      },
    },
    (req) => noticePages.acknowledge(req.params.code, req.headers.authorization, visitOf(req)),
  );

  app.post(
    '/api/public/notices/:code/payment-link',
    {
      schema: {
        tags,
        summary: 'Record that the payment link was opened',
        description: `Kept as evidence that the recipient opened the UPI payment link; 404 when no payee is set. ${bearer}`,
        params: noticeCodeParams,
      },
    },
    (req) => noticePages.paymentLinkOpened(req.params.code, req.headers.authorization, visitOf(req)),
  );

  app.post(
    '/api/public/notices/:code/respond',
    {
      config: { multipartForm: respondForm },
      schema: {
        tags,
        summary: 'Dispute a notice, or ask to settle or be called back',
        description: `JSON { kind: dispute | settle | callback, text }, or multipart/form-data with kind, text and, for a dispute, file (a PDF, JPEG, PNG or WebP judged by its bytes, at most 10 MB: larger answers 413). The text is kept as given and shown as text. ${bearer}`,
        params: noticeCodeParams,
      },
    },
    async (req) => {
      const visit = visitOf(req);
      // The token first: nothing is read from a visitor who has not answered the check.
      const opened = await noticePages.open(req.params.code, req.headers.authorization, visit);
      if (!req.isMultipart()) return noticePages.respond(opened, visit, req.body);
      // Cut one byte past the limit: a file that long is too large, and no more of it is read.
      const form = await readUploadForm(req, readLimited, async () => undefined, {
        fileSizeLimit: RESPONSE_FILE_MAX_BYTES + 1,
        fileOptional: true,
      }).catch((err: unknown) => {
        throw (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' ? fileTooLarge() : err;
      });
      return noticePages.respond(opened, visit, form.fields, form.file);
    },
  );

  app.get(
    '/api/responses',
    {
      schema: {
        tags: ['responses'],
        summary: 'List responses from notice pages',
        description:
          'Disputes and requests to settle or be called back, newest first, on the caller’s own records (an ADMIN’s too: records are their owner’s), each with the customer, the text as given (show it as text), the file and whether it was handled.',
        querystring: noticeResponsesQuery,
      },
    },
    (req) => noticePages.listResponses(req.user, req.query),
  );

  app.post(
    '/api/responses/:id/handled',
    {
      schema: {
        tags: ['responses'],
        summary: 'Mark a response handled',
        description:
          'Marks one of the caller’s responses handled, with who and when (audited); marking it again changes nothing. Another owner’s response answers 404.',
        params: z.object({ id: z.string().max(100, { error: 'id is too long.' }) }),
      },
    },
    (req) => noticePages.markHandled(req.user, req.params.id),
  );

  app.get(
    '/api/responses/:id/file',
    {
      schema: {
        tags: ['responses'],
        summary: 'Download a response’s file',
        description:
          'The file a recipient sent with a dispute, as an attachment. Another owner’s response, or one without a file, answers 404.',
        params: z.object({ id: z.string().max(100, { error: 'id is too long.' }) }),
      },
    },
    async (req, reply) => {
      const { stream, name, type } = await noticePages.responseFile(req.user, req.params.id);
      return reply.type(type).header('content-disposition', attachment(name)).send(stream);
    },
  );

  app.post(
    '/api/notice-links/:code/revoke',
    {
      schema: {
        tags,
        summary: 'Revoke a notice page link',
        description:
          'The notice page then says "This notice is no longer available"; its events and responses are kept. Audited.',
        params: noticeCodeParams,
      },
    },
    (req) => noticePages.revoke(req.user, req.params.code),
  );
}
