import { z } from 'zod';
import { editAndResendBody, failedRowsQuery } from '@notice-desk/contract/failed-rows';
import { recordId } from '@notice-desk/contract/record-fields';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';

const tags = ['sending'];
const campaignParams = z.object({ campaignId: recordId });

/** A campaign's failed rows, and Edit and resend on one of them. */
export function failedRowsRoutes(app: App, { failedRows, guards }: AppContext): void {
  guardRoutes(app, guards.requireUser);

  app.get(
    '/api/campaigns/:campaignId/failed-rows',
    {
      schema: {
        tags,
        summary: 'A campaign’s failed rows',
        description:
          'Every record and channel of the caller’s campaign whose latest attempt failed, bounced or was left out as not serviceable, paged (50 by default): the loan number (notices) or AAN (credit cards), the address or number it went to, the reason in words, and the record’s e-mail and mobile now. `unchanged` says the record still has the address that failed. With `show=unchanged`, only those. `failed` and `unchanged` count the whole campaign: what ‘Resend failed’ tells before it resends.',
        params: campaignParams,
        querystring: failedRowsQuery,
      },
    },
    (req) => failedRows.list(req.user._id, req.params.campaignId, req.query),
  );

  app.post(
    '/api/campaigns/:campaignId/records/:recordId/edit-and-resend',
    {
      schema: {
        tags,
        summary: 'Edit and resend a failed row',
        description:
          'Saves the record’s new e-mail (emailId) and/or mobile (custMobileNo) as the record edit does (audited; a served record may be edited, its deliveries keep the address each went to), then resends the record on `channel` only, as a resend does (the bounced-address and served-recently questions included: confirmBounced, confirmServedRecently). An address that cannot be served by its form answers 400 naming the field, and nothing is saved. A record not in the caller’s campaign answers 404; a channel whose latest attempt did not fail, bounce or was not left out answers 409 CHANNEL_DID_NOT_FAIL. A 409 of the send itself (BOUNCED_BEFORE, SERVED_RECENTLY, OUTSIDE_SENDING_HOURS) comes after the record was saved.',
        params: campaignParams.extend({ recordId }),
        body: editAndResendBody,
      },
    },
    (req) => failedRows.editAndResend(req.user._id, req.params.campaignId, req.params.recordId, req.body),
  );
}
