import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';
import { recordKinds } from '../records/record-kinds.ts';
import { bundleRoute } from './bundle-route.ts';

const tags = ['evidence'];

export function evidenceRoutes(app: App, { evidence, guards }: AppContext): void {
  guardRoutes(app, guards.requireUser);

  for (const info of Object.values(recordKinds)) {
    bundleRoute(
      app,
      {
        url: `${info.routes.base}/:id/evidence`,
        tags,
        summary: `Download a ${info.label.toLowerCase()}'s evidence bundle`,
        description: `A zip proving what was served for one ${info.label.toLowerCase()} record: the exact PDFs sent, deliveries.json and summary.pdf with every delivery (channel, recipient, times, provider message id, status history, SHA-256 of each PDF) and manifest.json with every file's SHA-256.`,
      },
      (ownerId, id) => evidence.forRecord(ownerId, info.kind, id),
    );
  }

  bundleRoute(
    app,
    {
      url: '/api/campaigns/:id/evidence',
      tags,
      summary: "Download a campaign's evidence bundle",
      description:
        "A zip proving what was served for every record of a campaign: the exact PDFs sent, deliveries.json and summary.pdf with every record's deliveries and status history, and manifest.json with every file's SHA-256.",
    },
    (ownerId, id) => evidence.forCampaign(ownerId, id),
  );
}
