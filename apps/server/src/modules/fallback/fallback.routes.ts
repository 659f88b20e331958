import { z } from 'zod';
import { campaignType } from '@notice-desk/contract/campaigns';
import { ladderBody } from '@notice-desk/contract/fallback';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutesBy, onlyReads } from '../../plugins/authenticate.ts';

const tags = ['fallback'];
const bodyDoc =
  "`channels`: the channels the campaign serves on, of 'email', 'whatsapp', 'sms', 'post' (post with no post step: every record is a post record from the start, credit cards too). `steps`: at most 8, in time order, each `{ channel, after, unless }`: `channel` one of `channels`, each at most once; `after` the whole hours (0 to 8760) after the record's first send in the campaign; `unless` (optional) 'delivered' (a message delivered or read on any channel), 'read', 'opened' (the notice page opened after its check) or 'acknowledged'. A step sends on its channel through the send path (post: the record becomes a post record, for the print file and booking list), once per record, inside the sending hours, every FALLBACK_CHECK_INTERVAL; its decision is written in the record's trail.";

/** Fallback ladders: a campaign's (its owner's), and each record kind's default (changed by ADMINs). */
export function fallbackRoutes(app: App, { fallback, guards }: AppContext): void {
  guardRoutesBy(app, (route) =>
    route.url.startsWith('/api/ladder-defaults') && !onlyReads(route)
      ? guards.requireAdmin
      : guards.requireUser,
  );

  app.get(
    '/api/campaigns/:id/ladder',
    {
      schema: {
        tags,
        summary: "A campaign's fallback ladder",
        description:
          'The ladder the campaign’s records follow: its own, else its record kind’s default (`source` says which), or null when neither is set (no step runs).',
        params: z.object({ id: recordId }),
      },
    },
    (req) => fallback.campaignLadder(req.user._id, req.params.id),
  );

  app.put(
    '/api/campaigns/:id/ladder',
    {
      schema: {
        tags,
        summary: "Set a campaign's own fallback ladder",
        description: `Sets one of the caller’s campaigns’ ladder over its kind’s default. ${bodyDoc} Audited.`,
        params: z.object({ id: recordId }),
        body: ladderBody,
      },
    },
    (req) => fallback.setCampaignLadder(req.user._id, req.params.id, req.body),
  );

  app.get(
    '/api/ladder-defaults/:kind',
    {
      schema: {
        tags,
        summary: "A record kind's default fallback ladder",
        description:
          'The ladder every campaign of the kind follows unless it has its own; null when none is set.',
        params: z.object({ kind: campaignType }),
      },
    },
    (req) => fallback.kindLadder(req.params.kind),
  );

  app.put(
    '/api/ladder-defaults/:kind',
    {
      schema: {
        tags,
        summary: "Set a record kind's default fallback ladder (ADMIN)",
        description: `Sets the ladder every campaign of the kind follows unless it has its own. ${bodyDoc} Audited.`,
        params: z.object({ kind: campaignType }),
        body: ladderBody,
      },
    },
    (req) => fallback.setKindLadder(req.user._id, req.params.kind, req.body),
  );
}
