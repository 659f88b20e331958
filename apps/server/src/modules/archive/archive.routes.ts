import { archivedCampaignList, archivedRecordList } from '@notice-desk/contract/archive';
import { pagingQuery } from '@notice-desk/contract/paging';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';
import { bundleRoute } from '../evidence/bundle-route.ts';
import { recordKinds } from '../records/record-kinds.ts';

const tags = ['archive'];
const query = pagingQuery({ limit: 25, limitMax: 100 });

/** ADMIN only: the records and campaigns deletes archived because they were served, and their evidence. */
export function archiveRoutes(app: App, { archive, guards }: AppContext): void {
  guardRoutes(app, guards.requireAdmin);
  // Declared once for the folder: every archive route is the ADMIN's.

  for (const info of Object.values(recordKinds)) {
    const segment = info.routes.base.replace('/api/', '');
    const many = info.kind === 'notice' ? 'notices' : 'credit-card records';
    app.get(
      `/api/archive/${segment}`,
      {
        schema: {
          tags,
          summary: `Archived ${many}`,
          description: `ADMIN only. Every owner's ${many} that a delete archived because they had been served, newest archived first, with owner and campaign. They are in no other list, count or search; their deliveries, events and PDFs are kept.`,
          querystring: query,
          response: { 200: archivedRecordList },
        },
      },
      (req) => archive.records(info.kind, req.query),
    );

    bundleRoute(
      app,
      {
        url: `/api/archive/${segment}/:id/evidence`,
        tags,
        summary: `Download an archived ${info.label.toLowerCase()}'s evidence bundle`,
        description: `ADMIN only. The evidence bundle (the exact PDFs sent, every delivery and its history, a manifest of SHA-256 hashes) of an archived ${info.label.toLowerCase()} record, whoever owns it. A record that is not archived answers 404.`,
      },
      (adminId, id) => archive.recordEvidence(adminId, info.kind, id),
    );
  }

  app.get(
    '/api/archive/campaigns',
    {
      schema: {
        tags,
        summary: 'Archived campaigns',
        description:
          'ADMIN only. Every owner’s campaigns that a delete archived because records in them had been served, newest archived first, each with its owner and how many records it keeps.',
        querystring: query,
        response: { 200: archivedCampaignList },
      },
    },
    (req) => archive.campaigns(req.query),
  );

  bundleRoute(
    app,
    {
      url: '/api/archive/campaigns/:id/evidence',
      tags,
      summary: "Download an archived campaign's evidence bundle",
      description:
        'ADMIN only. The evidence bundle of every record of an archived campaign, whoever owns it. A campaign that is not archived answers 404.',
    },
    (adminId, id) => archive.campaignEvidence(adminId, id),
  );
}
