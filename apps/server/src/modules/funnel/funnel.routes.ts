import { z } from 'zod';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';

const tags = ['campaigns'];
const steps =
  'Per channel (email, whatsapp, then any: each record once whatever its channel), how many records were sent (to a provider or to the outbox; bounced ones too), delivered (or read), read, and from the notice page opened (link_opened), verified, acknowledged, disputed and settle asked (settle_requested), by the channel of the link the visitor came by. Each number counts records, not attempts or visits; archived records are left out.';

export function funnelRoutes(app: App, { funnel, guards }: AppContext): void {
  guardRoutes(app, guards.requireUser);

  app.get(
    '/api/campaigns/:id/funnel',
    {
      schema: {
        tags,
        summary: 'A campaign’s funnel',
        description: `One of the caller’s campaigns. ${steps}`,
        params: z.object({ id: recordId }),
      },
    },
    (req) => funnel.campaign(req.user._id, req.params.id),
  );

  app.get(
    '/api/dashboard/funnel',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'The funnel of every campaign',
        description: `The caller’s live campaigns together; an ADMIN’s, every user’s. ${steps}`,
      },
    },
    (req) => funnel.dashboard(req.user),
  );
}
