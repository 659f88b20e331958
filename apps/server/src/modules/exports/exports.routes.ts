import { z } from 'zod';
import { campaignType } from '@notice-desk/contract/campaigns';
import type { App, AppContext } from '../../app-context.ts';
import { sendDownload } from '../../lib/content-disposition.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';

const params = z.object({ type: campaignType });
const query = z.object({
  campaignid: z.uuid({
    error: (issue) =>
      issue.input === undefined
        ? 'campaignid is required: name the campaign to export.'
        : 'campaignid is not a campaign id.',
  }),
});
const tags = ['exports'];

/** A campaign's two downloads: what each is, and the ExportsService method that streams it. */
const downloads = [
  {
    url: '/api/campaigns/export-reports/:type',
    summary: 'Download a campaign’s delivery report',
    description:
      'Streams an .xlsx of every record of the campaign: its fields and, per channel, status, time, provider message id, PDF SHA-256 and error.',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    streamed: 'report',
  },
  {
    url: '/api/campaigns/export-campaign/:type',
    summary: 'Download a campaign’s PDFs',
    description:
      'Streams a .zip of every notice PDF of the campaign, named after the loan or mask number and the customer; PDFs not yet rendered are rendered on the way.',
    contentType: 'application/zip',
    streamed: 'zip',
  },
] as const;

export function exportsRoutes(app: App, { exports, guards }: AppContext): void {
  guardRoutes(app, guards.requireUser);

  for (const { url, summary, description, contentType, streamed } of downloads)
    app.get(url, { schema: { tags, summary, description, params, querystring: query } }, async (req, reply) =>
      sendDownload(
        reply,
        contentType,
        await exports[streamed](req.user._id, req.params.type, req.query.campaignid),
      ),
    );
}
