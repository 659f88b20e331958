import { z } from 'zod';
import { campaignType } from '@notice-desk/contract/campaigns';
import { pageQuery } from '@notice-desk/contract/paging';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App, AppContext } from '../../app-context.ts';

const idParams = z.object({ id: recordId });

export function campaignsRoutes(app: App, { campaigns, guards }: AppContext): void {
  const signedIn = { onRequest: guards.requireUser };

  app.get(
    '/api/campaigns/single-campaign/:id',
    {
      ...signedIn,
      schema: {
        params: idParams,
        querystring: pageQuery.extend({ limit: pageQuery.shape.limit.default(50) }),
      },
    },
    (req) => campaigns.single(req.user._id, req.params.id, req.query),
  );

  app.get(
    '/api/campaigns/:type',
    { ...signedIn, schema: { params: z.object({ type: campaignType }), querystring: pageQuery } },
    (req) => campaigns.list(req.user._id, req.params.type, req.query),
  );

  app.delete('/api/campaigns/:id', { ...signedIn, schema: { params: idParams } }, (req) =>
    campaigns.remove(req.user._id, req.params.id),
  );
}
