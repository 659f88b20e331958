import { z } from 'zod';
import { recordId } from '@notice-desk/contract/record-fields';
import { sendMailBody, sendSummaryBody, sendSummaryQuery, testSendBody } from '@notice-desk/contract/sending';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';

const tags = ['sending'];
const idParams = z.object({ id: recordId });
const summaryDescription =
  'What a send would do, per channel (one with `channel`, both without), before it is asked: how many records go on the channel, how many would be sent, how many are left out because their address cannot be served by its form (not_serviceable), how many were sent before, and how many of those to send were served on the channel by another campaign (same loan number or AAN) within RESERVE_WARN_DAYS. With the threshold (BULK_SEND_CONFIRM_THRESHOLD) over which the web confirms a send first. Changes nothing.';

export function sendingRoutes(app: App, { sending, guards }: AppContext): void {
  guardRoutes(app, guards.requireUser);
  app.post(
    '/api/campaigns/send-mail',
    {
      schema: {
        tags,
        summary: 'Send notices',
        description:
          "Sends the caller's records (data: their ids) by e-mail with the notice PDF attached and by WhatsApp: a notice on the channels its Mode Of Dispatch names, a credit card on both. A record already sent on a channel is skipped unless resend is true. A resend repairs what did not go out: a record whose latest attempt on a channel failed or bounced is sent again on those channels only (its channels that went out are skipped: no second e-mail when only WhatsApp failed); a record none of whose channels failed is sent again on every channel. A resend while that record's send on the channel is still queued or under way joins it (one message, answered with its outcome) instead of sending twice. Each message goes to the address the record had when the send was asked. Answers how many were sent, failed, queued for retry, skipped and ignored (not the caller's). A record whose address on a channel cannot be served by its form (two @, no domain, not a 10-digit Indian mobile…) is left out on that channel and recorded as not_serviceable with the reason, counted in notServiceable and notServiceableReasons. A message to an address that bounced or failed for good before: with BOUNCED_ADDRESSES=confirm (the default) the send answers 409 BOUNCED_BEFORE saying how many addresses, and nothing is claimed; asked again with confirmBounced: true it sends anyway. With skip those messages are left out and counted in bouncedBefore. A borrower (same loan number or AAN) another campaign served on the channel within RESERVE_WARN_DAYS: the send answers 409 SERVED_RECENTLY ('12 borrowers were served a notice in the last 30 days'), and nothing is claimed, until asked again with confirmServedRecently: true.",
        body: sendMailBody,
      },
    },
    (req) =>
      sending.send(
        req.user._id,
        req.body.type,
        req.body.data,
        req.body.resend ?? false,
        req.body.confirmBounced ?? false,
        req.body.confirmServedRecently ?? false,
      ),
  );

  app.get(
    '/api/campaigns/:id/send-summary',
    {
      schema: {
        tags,
        summary: 'What sending a whole campaign would do',
        description: `${summaryDescription} Counts every record of the campaign.`,
        params: idParams,
        querystring: sendSummaryQuery,
      },
    },
    (req) => sending.summary(req.user._id, req.params.id, undefined, req.query.channel),
  );

  app.post(
    '/api/campaigns/:id/send-summary',
    {
      schema: {
        tags,
        summary: 'What sending some records of a campaign would do',
        description: `${summaryDescription} Counts the records of the campaign named in data (others are left out), every record when data is absent.`,
        params: idParams,
        querystring: sendSummaryQuery,
        body: sendSummaryBody,
      },
    },
    (req) => sending.summary(req.user._id, req.params.id, req.body?.data, req.query.channel),
  );

  app.post(
    '/api/campaigns/:id/test-send',
    {
      schema: {
        tags,
        summary: 'Send a test notice',
        description:
          'Renders one record of the campaign (recordId, else its first) as a send would and sends it by the real channel (e-mail, or WhatsApp) to the address or number in to, so a person sees the notice before a bulk send. It is not service: no delivery is recorded for the record; the audit log keeps it as a test send. An address that cannot be served answers 400 naming what is wrong.',
        params: idParams,
        body: testSendBody,
      },
    },
    (req) => sending.testSend(req.user._id, req.params.id, req.body),
  );
}
