import { z } from 'zod';
import { campaignType } from '@notice-desk/contract/campaigns';
import { recordId } from '@notice-desk/contract/record-fields';
import { legalBasisBody } from '@notice-desk/contract/service-dates';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutesBy, onlyReads } from '../../plugins/authenticate.ts';

const tags = ['legal basis'];
const kindParams = z.object({ kind: campaignType });
const campaignParams = z.object({ id: recordId });
const bodyDoc =
  "`basis`: 'ni-138' (NI Act s.138, 15 days from receipt), 'sarfaesi-13-2' (SARFAESI s.13(2), 60 days) or 'other' with `periodDays` (1 to 365) and a `label` such as Conciliation; `servedWhen`: 'first-event' (the first of delivered or read on any channel, or the notice page's verified or acknowledged; else deemed DEEMED_SERVICE_DAYS after the first e-mail, WhatsApp or SMS dispatch, or POST_DEEMED_SERVICE_DAYS after the booking of a letter not returned, whichever is first).";

/** The legal basis of notices and the response period it starts: reads for anyone signed in, changes for ADMINs. */
export function legalBasisRoutes(app: App, { serviceDates, guards }: AppContext): void {
  guardRoutesBy(app, (route) => (onlyReads(route) ? guards.requireUser : guards.requireAdmin));

  app.get(
    '/api/legal-basis',
    {
      schema: {
        tags,
        summary: 'The legal basis of each record kind',
        description:
          'Each record kind’s default legal basis and response period (null when none is set: its records have no respond-by date), and DEEMED_SERVICE_DAYS.',
      },
    },
    () => serviceDates.settings(),
  );

  app.put(
    '/api/legal-basis/kinds/:kind',
    {
      schema: {
        tags,
        summary: 'Set a record kind’s legal basis (ADMIN)',
        description: `Sets the legal basis every campaign of the kind follows unless it has its own. ${bodyDoc} Audited.`,
        params: kindParams,
        body: legalBasisBody,
      },
    },
    (req) => serviceDates.setKind(req.user._id, req.params.kind, req.body),
  );

  app.delete(
    '/api/legal-basis/kinds/:kind',
    {
      schema: {
        tags,
        summary: 'Clear a record kind’s legal basis (ADMIN)',
        description:
          'Its records have no respond-by date after this, unless their campaign has its own basis. Audited.',
        params: kindParams,
      },
    },
    (req) => serviceDates.clearKind(req.user._id, req.params.kind),
  );

  app.put(
    '/api/legal-basis/campaigns/:id',
    {
      schema: {
        tags,
        summary: 'Set a campaign’s own legal basis (ADMIN)',
        description: `Sets one of the caller’s campaigns’ legal basis over its kind’s. ${bodyDoc} Audited.`,
        params: campaignParams,
        body: legalBasisBody,
      },
    },
    (req) => serviceDates.setCampaign(req.user._id, req.params.id, req.body),
  );

  app.delete(
    '/api/legal-basis/campaigns/:id',
    {
      schema: {
        tags,
        summary: 'Clear a campaign’s own legal basis (ADMIN)',
        description: 'The campaign follows its kind’s legal basis again. Audited.',
        params: campaignParams,
      },
    },
    (req) => serviceDates.clearCampaign(req.user._id, req.params.id),
  );
}
