import { z } from 'zod';
import { campaignType } from '@notice-desk/contract/campaigns';
import { listSearch, searchablePageQuery, searchablePagingQuery } from '@notice-desk/contract/paging';
import { deliveryFilterQuery } from '@notice-desk/contract/sending';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';
import { deleteRoutes } from '../archive/delete-routes.ts';

const idParams = z.object({ id: recordId });
const tags = ['campaigns'];

export function campaignsRoutes(app: App, { campaigns, guards }: AppContext): void {
  guardRoutes(app, guards.requireUser);

  app.get(
    '/api/campaigns/single-campaign/:id',
    {
      schema: {
        tags,
        summary: 'One campaign with its records',
        description:
          'Answers one of the caller’s campaigns with a page of its records (50 by default), each with its latest e-mail and WhatsApp status and error, and how many records have been sent. With `search`, only the records a word of whose customer name, or whose identifier, starts with it (as the record lists search); with `status` (one or more, comma-separated), only the records whose latest attempt on `channel` (on either channel when absent) is in one of them. The total counts the records kept, so the pages follow the filter; the status counts cover the whole campaign.',
        params: idParams,
        querystring: searchablePagingQuery({ limit: 50 }).extend(deliveryFilterQuery.shape),
      },
    },
    (req) => campaigns.single(req.user._id, req.params.id, req.query),
  );

  app.get(
    '/api/campaigns/single-campaign/:id/record-ids',
    {
      schema: {
        tags,
        summary: 'The ids of a campaign’s records a filter keeps',
        description:
          'Every id of the caller’s campaign’s records that `status` (comma-separated) on `channel` and `search` keep, as the campaign detail filters them, in campaign order, with their count; every record when neither is given. What ‘Resend failed’ (`status=failed,bounced`) confirms with and then sends, over the whole campaign.',
        params: idParams,
        querystring: deliveryFilterQuery.extend({ search: listSearch }),
      },
    },
    (req) => campaigns.recordIds(req.user._id, req.params.id, req.query),
  );

  app.get(
    '/api/campaigns/:type',
    {
      schema: {
        tags,
        summary: 'Campaign history',
        description:
          'Lists the caller’s campaigns of a kind (credit-card or notice), newest first: one per imported file plus Manual entries, with how many rows each imported and skipped. With `search`, only those whose name holds that text, ignoring case; the total counts them.',
        params: z.object({ type: campaignType }),
        querystring: searchablePageQuery,
      },
    },
    (req) => campaigns.list(req.user._id, req.params.type, req.query),
  );

  deleteRoutes(app, {
    url: '/api/campaigns/:id',
    tags,
    remove: {
      summary: 'Delete a campaign',
      description:
        'Deletes one of the caller’s campaigns with every record in it. Records already served are archived (kept as evidence, out of every list), and the campaign with them; records never sent are erased. The answer counts both (archived, erased).',
      run: (ownerId, id) => campaigns.remove(ownerId, id),
    },
    preview: {
      summary: 'What deleting a campaign would do',
      description:
        'How many of the campaign’s records a delete would archive (already served: kept as evidence) and erase (never sent), for the confirmation to say so. Changes nothing.',
      run: (ownerId, id) => campaigns.previewRemove(ownerId, id),
    },
  });
}
