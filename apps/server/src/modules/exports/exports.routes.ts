import { z } from 'zod';
import { campaignType } from '@notice-desk/contract/campaigns';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App, AppContext } from '../../app-context.ts';

const params = z.object({ type: campaignType });
const query = z.object({ campaignid: recordId });
const attachment = (name: string) =>
  `attachment; filename="${name.replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export function exportsRoutes(app: App, { exports, guards }: AppContext): void {
  const signedIn = { onRequest: guards.requireUser };

  app.get(
    '/api/campaigns/export-reports/:type',
    { ...signedIn, schema: { params, querystring: query } },
    async (req, reply) => {
      const { name, stream } = await exports.report(req.user._id, req.params.type, req.query.campaignid);
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment(name))
        .send(stream);
    },
  );

  app.get(
    '/api/campaigns/export-campaign/:type',
    { ...signedIn, schema: { params, querystring: query } },
    async (req, reply) => {
      const { name, stream } = await exports.zip(req.user._id, req.params.type, req.query.campaignid);
      return reply.type('application/zip').header('content-disposition', attachment(name)).send(stream);
    },
  );
}
