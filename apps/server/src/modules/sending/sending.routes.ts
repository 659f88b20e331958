import { sendMailBody } from '@notice-desk/contract/sending';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';

const tags = ['sending'];

export function sendingRoutes(app: App, { sending, guards }: AppContext): void {
  guardRoutes(app, guards.requireUser);
  app.post(
    '/api/campaigns/send-mail',
    {
      schema: {
        tags,
        summary: 'Send notices',
        description:
          "Sends the caller's records (data: their ids) by e-mail with the notice PDF attached and by WhatsApp: a notice on the channels its Mode Of Dispatch names, a credit card on both. A record already sent on a channel is skipped unless resend is true. A resend repairs what did not go out: a record whose latest attempt on a channel failed or bounced is sent again on those channels only (its channels that went out are skipped: no second e-mail when only WhatsApp failed); a record none of whose channels failed is sent again on every channel. A resend while that record's send on the channel is still queued or under way joins it (one message, answered with its outcome) instead of sending twice. Each message goes to the address the record had when the send was asked. Answers how many were sent, failed, queued for retry, skipped and ignored (not the caller's). A message to an address that bounced or failed for good before: with BOUNCED_ADDRESSES=confirm (the default) the send answers 409 BOUNCED_BEFORE saying how many addresses, and nothing is claimed; asked again with confirmBounced: true it sends anyway. With skip those messages are left out and counted in bouncedBefore.",
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
      ),
  );
}
