import type {
  EditAndResendBody,
  EditAndResendResult,
  FailedRow,
  FailedRowsPage,
  FailedRowStatus,
} from '@notice-desk/contract/failed-rows';
import { failedRowStatuses } from '@notice-desk/contract/failed-rows';
import { recordAddress, unserviceableReason } from '@notice-desk/contract/serviceable';
import type { Database } from '../../db/database.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { findCampaign } from '../campaigns/campaigns.repository.ts';
import { recordKinds, type RecordKindInfo } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import type { RecordsService } from '../records/records.service.ts';
import { findLatestFailures, type FailedDelivery } from './failed-rows.repository.ts';
import type { SendingService } from './sending.service.ts';

const fieldOf = { email: 'emailId', whatsapp: 'custMobileNo' } as const;
const channelWords = { email: 'e-mail', whatsapp: 'WhatsApp', sms: 'SMS' } as const;

/**
 * A campaign's failed rows (a record and channel whose latest attempt failed, bounced or was left out
 * as not serviceable) and Edit and resend: the record's e-mail or mobile fixed (through the records
 * edit, audited as any edit) and the record resent on the channel that failed, in one request.
 */
export class FailedRowsService {
  constructor(
    private readonly db: Database,
    private readonly records: RecordsService,
    private readonly sending: SendingService,
    /** DEFAULT_COUNTRY_CODE: the mobile rule an edited number is checked by. */
    private readonly countryCode = '91',
  ) {}

  /** A page of the campaign's failed rows, all or only those whose address is unchanged since. */
  async list(
    ownerId: string,
    campaignId: string,
    { page, limit, show }: { page: number; limit: number; show: 'all' | 'unchanged' },
  ): Promise<FailedRowsPage> {
    const info = await this.kindOf(ownerId, campaignId);
    const failures = await findLatestFailures(this.db, ownerId, campaignId, failedRowStatuses);
    const rows = await this.rowsOf(info, ownerId, failures);
    const unchanged = rows.filter((row) => row.unchanged);
    const kept = show === 'unchanged' ? unchanged : rows;
    const offset = (page - 1) * limit;
    return {
      items: kept.slice(offset, offset + limit),
      total: kept.length,
      failed: rows.length,
      unchanged: unchanged.length,
    };
  }

  async editAndResend(
    ownerId: string,
    campaignId: string,
    recordId: string,
    body: EditAndResendBody,
  ): Promise<EditAndResendResult> {
    const info = await this.kindOf(ownerId, campaignId);
    const record = (await records.findRecordsByIds(this.db, info, ownerId, [recordId]))[0];
    if (!record || record.campaign_id !== campaignId) throw notFound(info.label);
    const edits = this.checkedEdits(body);
    const [failure] = await findLatestFailures(
      this.db,
      ownerId,
      campaignId,
      failedRowStatuses,
      recordId,
    ).then((failures) => failures.filter((f) => f.channel === body.channel));
    if (!failure)
      throw new AppError(
        409,
        'CHANNEL_DID_NOT_FAIL',
        `This record's ${channelWords[body.channel]} did not fail; there is nothing to resend on it.`,
        { channel: `The latest ${channelWords[body.channel]} attempt did not fail.` },
      );
    const changed = (Object.keys(edits) as (keyof typeof edits)[]).filter(
      (key) => edits[key] !== (record[key] ?? ''),
    );
    // The records edit saves and audits it, as the edit form does (a served record may be edited: its
    // deliveries keep the address each went to).
    if (changed.length > 0) await this.records.update(info, ownerId, recordId, { ...record, ...edits });
    const send = await this.sending.send(
      ownerId,
      info.kind,
      [recordId],
      true,
      body.confirmBounced ?? false,
      body.confirmServedRecently ?? false,
      body.channel,
    );
    const what = changed.length > 0 ? 'Saved and resent' : 'Resent';
    return { message: `${what} by ${channelWords[body.channel]}.`, changed, send };
  }

  /** The new e-mail and mobile, each checked by the rule the send uses; a bad one is a 400 naming it. */
  private checkedEdits(body: EditAndResendBody): Partial<Record<'emailId' | 'custMobileNo', string>> {
    const edits: Partial<Record<'emailId' | 'custMobileNo', string>> = {};
    const problems: Record<string, string> = {};
    for (const channel of ['email', 'whatsapp'] as const) {
      const field = fieldOf[channel];
      const value = body[field];
      if (value === undefined) continue;
      const trimmed = value.trim();
      const reason = unserviceableReason(channel, trimmed, this.countryCode);
      if (reason !== null) problems[field] = `${field}: ${reason}.`;
      else edits[field] = trimmed;
    }
    if (Object.keys(problems).length > 0) throw badRequest(Object.values(problems).join(' '), problems);
    return edits;
  }

  private async kindOf(ownerId: string, campaignId: string): Promise<RecordKindInfo> {
    const campaign = await findCampaign(this.db, ownerId, campaignId);
    if (!campaign) throw notFound('Campaign');
    return recordKinds[campaign.kind];
  }

  /** The failures of live records, with what the record says now. */
  private async rowsOf(
    info: RecordKindInfo,
    ownerId: string,
    failures: FailedDelivery[],
  ): Promise<FailedRow[]> {
    const ids = [...new Set(failures.map((f) => f.record_id))];
    const byId = new Map(
      (await records.findRecordsByIds(this.db, info, ownerId, ids)).map((row) => [row.id, row]),
    );
    return failures.flatMap((failure) => {
      const record = byId.get(failure.record_id);
      if (!record) return [];
      const now = recordAddress(record, failure.channel).trim();
      return [
        {
          recordId: record.id,
          channel: failure.channel,
          status: failure.status as FailedRowStatus,
          custName: record.custName ?? '',
          reference: (info.kind === 'notice' ? record.loanNo : record.aanNo) ?? '',
          recipient: failure.recipient,
          reason: failure.error ?? '',
          failedAt: failure.status_at,
          emailId: record.emailId ?? '',
          custMobileNo: record.custMobileNo ?? '',
          unchanged: now === failure.recipient.trim(),
        },
      ];
    });
  }
}
