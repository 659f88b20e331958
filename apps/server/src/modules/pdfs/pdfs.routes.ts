import { z } from 'zod';
import { campaignType } from '@notice-desk/contract/campaigns';
import { recordId } from '@notice-desk/contract/record-fields';
import { previewRecordsQuery, templatePreviewBody } from '@notice-desk/contract/template-preview';
import { TEMPLATE_MAX_BYTES } from '@notice-desk/contract/templates';
import type { App, AppContext } from '../../app-context.ts';
import { inline } from '../../lib/content-disposition.ts';
import { guardRoutesBy } from '../../plugins/authenticate.ts';

const tags = ['pdfs'];
/** A signed link from a list's pdfUrl + pdfLink: opens in a new tab, so it carries no bearer header. */
const signedLink = '/api/pdf/:kind/:id';

export function pdfsRoutes(app: App, { pdfs, guards }: AppContext): void {
  // The signed link is its own proof; the editor's preview is an ADMIN's, as template changes are.
  guardRoutesBy(app, (route) => (route.url === signedLink ? null : guards.requireAdmin));

  app.get(
    signedLink,
    {
      schema: {
        tags,
        summary: 'Open a record’s notice PDF',
        description:
          'Answers the notice PDF of one record, rendered from its kind’s PDF Editor template. No bearer token: the link (a list’s pdfUrl plus the row’s pdfLink) is signed and valid 12 hours; a changed or expired link answers 403.',
        params: z.object({ kind: campaignType, id: recordId }),
        querystring: z.object({
          expires: z.coerce.number({
            error: 'This PDF link is incomplete: it has no expiry. Reload the list for a fresh link.',
          }),
          signature: z
            .string({
              error: 'This PDF link is incomplete: it has no signature. Reload the list for a fresh link.',
            })
            .max(100, { error: 'This PDF link is invalid: its signature is too long.' }),
        }),
      },
    },
    async (req, reply) => {
      const { pdf, name } = await pdfs.pdfForLink(
        req.params.kind,
        req.params.id,
        req.query.expires,
        req.query.signature,
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', inline(name))
        .header('cache-control', 'private, max-age=300')
        .send(pdf);
    },
  );

  /** The editor's Preview: the template as it stands in the editor, rendered with one of the caller's records. */
  app.post(
    '/api/emailTemplates/preview',
    {
      bodyLimit: TEMPLATE_MAX_BYTES * 2,
      schema: {
        tags,
        summary: 'Preview a PDF Editor template',
        description:
          'Renders the template HTML as it stands in the editor as a notice in language (the variant’s code, such as hi; null or left out for a default template: amounts in words print in it), merged with the caller’s record recordId (404 when it is not the caller’s record of that kind), else the newest of the caller’s records in that language, else the newest, else sample values, and answers the PDF. Nothing is saved.',
        body: templatePreviewBody,
      },
    },
    async (req, reply) =>
      reply
        .type('application/pdf')
        .header('content-disposition', inline('preview.pdf'))
        .send(
          await pdfs.preview(req.user._id, req.body.kind, req.body.html, {
            recordId: req.body.recordId,
            language: req.body.language ?? null,
          }),
        ),
  );

  /** The records the editor's Preview may print with, for its record picker. */
  app.get(
    '/api/emailTemplates/preview-records',
    {
      schema: {
        tags,
        summary: 'List the records a PDF Editor preview may print with',
        description:
          'The caller’s records of kind a preview of a template in language (a variant’s code; left out for a default template) may print with, at most 10: with q, those whose customer name has a word starting with q or whose loan, mask or reference number starts with it; else the newest in that language first, then the newest others. defaultId is the record a preview prints with when none is picked (null: the caller has none of that kind).',
        querystring: previewRecordsQuery,
      },
    },
    (req) => pdfs.previewRecords(req.user._id, req.query.kind, req.query.language ?? null, req.query.q),
  );
}
