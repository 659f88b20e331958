import { z } from 'zod';
import { campaignType, type CampaignType } from '@notice-desk/contract/campaigns';
import type { App } from '../../app-context.ts';

const tags = ['templates'];
const params = z.object({ kind: campaignType });

/**
 * What tells apart the templates a channel keeps one per record kind (the SMS DLT template, the
 * approved WhatsApp template): the URL, the words in the API docs, the update body and the service.
 */
type KindTemplateRoutes<TUpdate extends z.ZodType> = {
  /** GET answers every kind's template; PUT {url}/{kind} sets one. */
  url: string;
  list: { summary: string; description: string };
  update: { summary: string; description: string; body: TUpdate };
  service: {
    list: () => Promise<unknown>;
    update: (actorId: string, kind: CampaignType, body: z.infer<TUpdate>) => Promise<unknown>;
  };
};

/** A channel's template per record kind: every kind's, and one kind's set. The folder guards them. */
export function kindTemplateRoutes<TUpdate extends z.ZodType>(
  app: App,
  { url, list, update, service }: KindTemplateRoutes<TUpdate>,
): void {
  app.get(url, { schema: { tags, summary: list.summary, description: list.description } }, () =>
    service.list(),
  );
  app.put(
    `${url}/:kind`,
    { schema: { tags, summary: update.summary, description: update.description, params, body: update.body } },
    // The type provider cannot see through the generic schema; Fastify has parsed the body by it.
    (req) => service.update(req.user._id, req.params.kind, req.body as z.infer<TUpdate>),
  );
}
