import { z } from 'zod';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App, AppContext } from '../../app-context.ts';
import { sendDownload } from '../../lib/content-disposition.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';
import { recordKinds } from '../records/record-kinds.ts';

const params = z.object({ id: recordId });

export function evidenceRoutes(app: App, { evidence, guards }: AppContext): void {
  guardRoutes(app, guards.requireUser);

  for (const info of Object.values(recordKinds)) {
    app.get(
      `${info.routes.base}/:id/evidence`,
      {
        schema: {
          summary: `Download a ${info.label.toLowerCase()}'s evidence bundle`,
          description: `A zip proving what was served for one ${info.label.toLowerCase()} record: the exact PDFs sent, deliveries.json and summary.pdf with every delivery (channel, recipient, times, provider message id, status history, SHA-256 of each PDF) and manifest.json with every file's SHA-256.`,
          tags: ['evidence'],
          params,
        },
      },
      async (req, reply) =>
        sendDownload(
          reply,
          'application/zip',
          await evidence.forRecord(req.user._id, info.kind, req.params.id),
        ),
    );
  }

  app.get(
    '/api/campaigns/:id/evidence',
    {
      schema: {
        summary: "Download a campaign's evidence bundle",
        description:
          "A zip proving what was served for every record of a campaign: the exact PDFs sent, deliveries.json and summary.pdf with every record's deliveries and status history, and manifest.json with every file's SHA-256.",
        tags: ['evidence'],
        params,
      },
    },
    async (req, reply) =>
      sendDownload(reply, 'application/zip', await evidence.forCampaign(req.user._id, req.params.id)),
  );
}
