import { providerErrors, providerSeconds, sends } from '../../lib/metrics.ts';
import type { EventEmitter } from 'node:events';
import { z } from 'zod';
import { recordAddress, recordChannels, unserviceableReason } from '@notice-desk/contract/serviceable';
import type {
  SendResult,
  SendSummary,
  SendSummaryChannel,
  TestSendBody,
  TestSendResult,
} from '@notice-desk/contract/sending';
import type { Database } from '../../db/database.ts';
import type { Channel, DeliveryStatus, RecordKind } from '../../db/schema.ts';
import { PermanentJobError, RetryAtError, type JobContext } from '../../jobs/job-runner.ts';
import { defineJob, enqueue } from '../../jobs/job-definition.ts';
import { findJob } from '../../jobs/jobs.repository.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { PermanentSendError, TransientSendError } from '../../lib/send-errors.ts';
import type { DocumentLocale } from '../../lib/indian-format.ts';
import type { SmsSender } from '../../lib/sms.ts';
import { closedMessage, isOpen, nextOpening, type SendWindow } from '../../lib/send-window.ts';
import type { FileStore } from '../../lib/storage.ts';
import { nowIso } from '../../lib/time.ts';
import type { WhatsappSender } from '../../lib/whatsapp.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import { findCampaign } from '../campaigns/campaigns.repository.ts';
import type { SendRates } from '../limits/send-rates.ts';
import type { ApprovedTemplatesService } from '../whatsapp-approved/approved-templates.service.ts';
import type { PdfsService, RefusedPdf, RenderedPdf } from '../pdfs/pdfs.service.ts';
import { recordKinds } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import type { SmsTemplatesService } from '../sms-templates/sms-templates.service.ts';
import * as undeliverable from '../bounces/undeliverable.repository.ts';
import {
  channelAdapters,
  type ChannelAdapter,
  type SendMessage,
  type SendReceipt,
} from './channels/index.ts';
import * as deliveries from './deliveries.repository.ts';
import { WriteBatch } from './write-batch.ts';

export { withPageLink } from './channels/email.ts';
export { withCaptionLink } from './channels/whatsapp.ts';

export const sendJobPayload = z.object({
  kind: z.enum(['notice', 'credit-card']),
  deliveryIds: z.array(z.string().min(1)).min(1),
});
export type SendJobPayload = z.infer<typeof sendJobPayload>;
export const SEND_JOB = defineJob('send', sendJobPayload);
/** 2 s, 4 s … 256 s, then 5 min: a provider may be away for about 20 minutes before a send gives up. */
const SEND_ATTEMPTS = 10;
/** How long send-mail waits for its deliveries before answering with what it knows. */
const ANSWER_WITHIN_MS = 60_000;
/** Sends in flight at once within one job. */
const PARALLEL = 20;
/** Records rendered ahead of the chunk being sent. */
const RENDER_AHEAD = 20;
/** The effective rate a send answers with is counted over this much of the recent past. */
const RATE_WINDOW_MS = 5_000;

/**
 * A notice goes where its Mode Of Dispatch says (e-mail, WhatsApp, or both when it names neither; SMS
 * where it names SMS); a credit card by e-mail and WhatsApp. With `whatsappAloneRefused`
 * (WHATSAPP_ALONE_REFUSED), a record that goes by WhatsApp goes by e-mail too when it has an address
 * that can be served.
 */
export function channelsFor(
  kind: RecordKind,
  fields: Record<string, string | undefined>,
  whatsappAloneRefused = false,
): Channel[] {
  const channels: Channel[] = recordChannels(kind, fields);
  if (
    whatsappAloneRefused &&
    channels.includes('whatsapp') &&
    !channels.includes('email') &&
    unserviceableReason('email', recordAddress(fields, 'email'), '') === null
  )
    return ['email', ...channels];
  return channels;
}

export interface SendingDeps {
  db: Database;
  store: FileStore;
  pdfs: PdfsService;
  mailer: Mailer;
  whatsapp: WhatsappSender;
  /** MSG91, or the outbox; absent, no SMS can be sent (tests of the other channels alone). */
  sms?: SmsSender;
  /** The DLT template per record kind, which every SMS goes on. */
  smsTemplates?: SmsTemplatesService;
  /**
   * WHATSAPP_ALONE_REFUSED: a record served by WhatsApp goes by e-mail in the same send when it has an
   * address (the Supreme Court's order of 10 July 2020); the answer lists those that have WhatsApp only.
   */
  whatsappAloneRefused?: boolean;
  defaultCountryCode: string;
  /** BOUNCED_ADDRESSES: a send to an address that bounced or failed before asks first (confirm) or leaves it out (skip). */
  bouncedAddresses?: 'skip' | 'confirm';
  /** BULK_SEND_CONFIRM_THRESHOLD: a send of more records than this is confirmed first (the web asks). */
  bulkSendConfirmThreshold?: number;
  /** RESERVE_WARN_DAYS: a borrower another campaign served on the channel this recently asks first (0: never). */
  reserveWarnDays?: number;
  /** Quiet hours: when set, nothing is sent outside this daily window. */
  sendWindow?: SendWindow;
  /** LOCALE and TIME_ZONE, for formatted placeholders ({{noticeDate | date}}); India's when absent. */
  where?: DocumentLocale;
  /** The right-hand side of each e-mail's Message-ID (the app's host name). */
  messageIdDomain: string;
  /** BOUNCE_RETURN_PATH_DOMAIN: each e-mail's envelope sender is bounce+<delivery id>@ this (VERP). */
  returnPathDomain?: string | undefined;
  onEnqueued: () => void;
  /** The approved WhatsApp template each kind goes with (template mode), checked before a send claims. */
  approvedTemplates: ApprovedTemplatesService;
  /** WHATSAPP_RATE, SMTP_RATE and SMS_RATE, held by every worker together. */
  rates: SendRates;
  /** JOB_RETRY_BACKOFF: a provider's wait longer than this is waited for exactly (RetryAtError). */
  firstRetryMs: number;
  /**
   * Each record's notice page link (issue 29): made before its first message goes, the same on every
   * resend; absent, messages carry no link (tests of sending alone).
   */
  noticeLinks?: NoticeLinks;
  /** This process's job runner, which says when a job settles (absent when jobs run elsewhere). */
  jobEvents?: EventEmitter<{ settled: [jobId: string] }>;
}

/** What sending needs of the notice pages: a record's code, and the page's address for a channel. */
export interface NoticeLinks {
  /** By record id, each record's code: made on its first send, the same on every later one. */
  linksFor(
    kind: RecordKind,
    records: { id: string; owner_id: string; campaign_id: string }[],
  ): Promise<Map<string, string>>;
  pageUrl(code: string, channel: 'e' | 'w' | 's'): string;
}

/** What a delivery row holds when it is queued at `now`: no attempt, answer or file yet. */
const queuedAt = (now: string) => ({
  status: 'queued' as const,
  status_at: now,
  provider_message_id: null,
  error: null,
  pdf_sha256: null,
  pdf_key: null,
  created_at: now,
  attempted_at: null,
  record_address_at_send: null,
  media_id: null,
});

/**
 * Sends notices by e-mail and WhatsApp. A request claims each record's send per channel (a unique
 * key: two requests at once cannot both send), then a job sends them, so a send survives a crash
 * and retries what the mail server or WhatsApp asked to retry later, with backoff.
 */
export class SendingService {
  /** The hand-overs and outcomes of the messages in flight, written a batch per commit. */
  private readonly handOvers = new WriteBatch<deliveries.HandOver>((batch) =>
    deliveries.markAllAttempted(this.deps.db, batch),
  );
  private readonly outcomes = new WriteBatch<deliveries.StatusMove>((batch) =>
    deliveries.advanceStatuses(this.deps.db, batch),
  );

  /** Each channel's adapter (channels/): its address, its message, its provider. */
  private readonly channels: Partial<Record<Channel, ChannelAdapter>>;

  constructor(private readonly deps: SendingDeps) {
    const links = deps.noticeLinks;
    // Named one by one: deps' jobEvents is a getter that may not be readable yet.
    this.channels = channelAdapters({
      db: deps.db,
      mailer: deps.mailer,
      whatsapp: deps.whatsapp,
      sms: deps.sms,
      smsTemplates: deps.smsTemplates,
      approvedTemplates: deps.approvedTemplates,
      messageIdDomain: deps.messageIdDomain,
      returnPathDomain: deps.returnPathDomain,
      defaultCountryCode: deps.defaultCountryCode,
      where: deps.where,
      pageUrl: links && ((code, channel) => links.pageUrl(code, channel)),
    });
  }

  /** The adapter of a channel; a channel this process cannot send on is refused. */
  private adapter(channel: Channel): ChannelAdapter {
    const adapter = this.channels[channel];
    if (!adapter) throw new AppError(409, 'CHANNEL_UNAVAILABLE', `Sending by ${channel} is not set up.`);
    return adapter;
  }

  /** The channels a record goes on, with WHATSAPP_ALONE_REFUSED applied. */
  private channelsOf(kind: RecordKind, row: Record<string, string | undefined>): Channel[] {
    return channelsFor(kind, row, this.deps.whatsappAloneRefused ?? false);
  }

  async send(
    ownerId: string,
    kind: RecordKind,
    ids: string[],
    resend: boolean,
    confirmBounced = false,
    confirmServedRecently = false,
    /** Edit and resend: only this channel is sent (the one that failed), whatever else the record goes on. */
    only?: Channel,
    /** A fallback step (modules/fallback): `only` goes whatever channels the record itself names. */
    step = false,
  ): Promise<SendResult> {
    if (ids.length === 0)
      throw badRequest('Please select Items', { data: 'Select at least one record to send.' });
    const { sendWindow } = this.deps;
    if (sendWindow && !isOpen(sendWindow, new Date()))
      throw new AppError(409, 'OUTSIDE_SENDING_HOURS', closedMessage(sendWindow, new Date()));
    const info = recordKinds[kind];
    const unique = [...new Set(ids)];
    const owned = await records.findRecordsByIds(this.deps.db, info, ownerId, unique);
    const channelsOf = (row: records.RecordRow): Channel[] =>
      step && only ? [only] : this.channelsOf(kind, row);
    // A channel that could not send (WhatsApp's approved template not approved, no DLT template for
    // SMS) refuses the whole send before anything is claimed.
    const used = new Set(
      owned.flatMap((row) => channelsOf(row)).filter((c) => only === undefined || c === only),
    );
    for (const channel of used) await this.adapter(channel).readyFor(kind);
    const now = nowIso();
    const attempts: deliveries.DeliveryRow[] = owned.flatMap((row) =>
      channelsOf(row)
        .filter((channel) => only === undefined || channel === only)
        .map((channel) => ({
          id: newId(),
          owner_id: ownerId,
          record_kind: kind,
          record_id: row.id,
          campaign_id: row.campaign_id,
          channel,
          active_key: deliveries.activeKey(row.id, channel),
          recipient: this.adapter(channel).addressOf(row),
          recipient_name: row.custName ?? '',
          ...queuedAt(now),
        })),
    );
    const again = resend ? await this.resendKeys(owned, attempts) : new Set<string>();
    // An address that cannot be served by its form is left out on that channel, recorded as such,
    // rather than failed by the provider: only the messages this send would make are judged.
    const wouldSend = wouldSendOf(attempts, again, await this.holders(attempts));
    const notServiceable: deliveries.DeliveryRow[] = [];
    for (const attempt of attempts) {
      if (!wouldSend.has(attempt.id)) continue;
      const reason = unserviceableReason(attempt.channel, attempt.recipient, this.deps.defaultCountryCode);
      if (reason !== null)
        notServiceable.push({ ...attempt, active_key: null, status: 'not_serviceable', error: reason });
    }
    if (notServiceable.length > 0) {
      const left = new Set(notServiceable.map((a) => a.id));
      attempts.splice(0, attempts.length, ...attempts.filter((a) => !left.has(a.id)));
    }
    const bouncedBefore = await this.undeliverableAttempts(
      ownerId,
      attempts.filter((a) => wouldSend.has(a.id)),
      confirmBounced,
    );
    if (bouncedBefore.size > 0)
      attempts.splice(0, attempts.length, ...attempts.filter((a) => !bouncedBefore.has(a.id)));
    if (!confirmServedRecently)
      await this.askServedRecently(
        ownerId,
        kind,
        attempts.filter((a) => wouldSend.has(a.id)),
      );
    // A resend releases the earlier sends that have finished (on the channels it sends again: resendKeys)
    // and claims anew, and the log says so, all at once or not at all. A send still queued or in flight is not released: the resend joins it.
    // The job is enqueued in the same transaction, so a claimed send always has a live job to join.
    const { claimed, joined, jobId } = await this.deps.db.transaction().execute(async (trx) => {
      if (again.size > 0) {
        const keys = [...again];
        await deliveries.releaseFinished(trx, keys);
        for (const abandoned of await deliveries.findAbandoned(trx, keys, SEND_JOB.name))
          await deliveries.advanceStatus(trx, abandoned, 'failed', now, {
            error: 'Its send gave up before an answer was recorded; a resend sent it anew.',
          });
      }
      await deliveries.recordNotServiceable(trx, notServiceable);
      const claimed = await deliveries.claimDeliveries(trx, attempts);
      const taken = new Set(claimed);
      const joined = resend
        ? (
            await deliveries.findActive(
              trx,
              attempts.filter((a) => !taken.has(a.id) && again.has(a.active_key!)).map((a) => a.active_key!),
            )
          )
            .filter((d) => d.status === 'queued')
            .map((d) => d.id)
        : [];
      if (claimed.length > 0) {
        const channels = attempts.filter((a) => taken.has(a.id)).map((a) => a.channel);
        const count = (channel: Channel) => channels.filter((c) => c === channel).length;
        const sms = count('sms');
        await appendAudit(trx, {
          actorId: ownerId,
          action: 'notice.send',
          subjectType: kind,
          summary: `${info.label} records${resend ? ' resent' : ' sent'}: ${count('email')} by e-mail, ${count('whatsapp')} by WhatsApp${sms > 0 ? `, ${sms} by SMS` : ''}`,
          after: {
            records: [...new Set(attempts.filter((a) => taken.has(a.id)).map((a) => a.record_id))],
            email: count('email'),
            whatsapp: count('whatsapp'),
            ...(sms > 0 && { sms }),
            resend,
          },
        });
      }
      const jobId = claimed.length > 0 ? await this.enqueue(trx, ownerId, kind, claimed) : undefined;
      return { claimed, joined, jobId };
    });
    const skipped = attempts.length - claimed.length - joined.length;
    const result: SendResult = {
      message: 'Send Mail Successfully.',
      sent: 0,
      failed: 0,
      queued: 0,
      skipped,
      ignored: unique.length - owned.length,
      bouncedBefore: bouncedBefore.size,
      notServiceable: notServiceable.length,
      notServiceableReasons: reasonCounts(notServiceable),
      rates: [],
    };
    if (this.deps.whatsappAloneRefused) {
      // Served by WhatsApp in this send with no e-mail beside it: the record has no address to serve.
      const going = new Set([...claimed, ...joined]);
      const byWhatsapp = new Set(
        attempts.filter((a) => a.channel === 'whatsapp' && going.has(a.id)).map((a) => a.record_id),
      );
      result.whatsappOnly = owned
        .filter((row) => byWhatsapp.has(row.id) && !this.channelsOf(kind, row).includes('email'))
        .map((row) => row.id);
    }
    if (claimed.length + joined.length === 0) return result;
    const until = Date.now() + ANSWER_WITHIN_MS;
    if (jobId) {
      this.deps.onEnqueued();
      this.renderAhead(kind, ownerId, owned);
      await this.waitFor(until, () => this.firstAttemptEnded(jobId, ownerId));
    }
    if (joined.length > 0) await this.waitFor(until, () => this.attemptsEnded(joined));
    for (const delivery of await deliveries.findDeliveries(this.deps.db, [...claimed, ...joined])) {
      if (delivery.status === 'failed') result.failed += 1;
      else if (delivery.status === 'queued') result.queued += 1;
      else result.sent += 1;
    }
    result.rates = await this.effectiveRates();
    return result;
  }

  /** Each limited channel's limit, and the rate it went out at over the last seconds, every worker together. */
  private async effectiveRates(): Promise<NonNullable<SendResult['rates']>> {
    const since = new Date(Date.now() - RATE_WINDOW_MS).toISOString();
    const limited = (Object.keys(this.channels) as Channel[]).filter(
      (c) => this.deps.rates.limitOf(c) !== null,
    );
    return Promise.all(
      limited.map(async (channel) => {
        const count = await deliveries.countAttemptedSince(this.deps.db, channel, since);
        return {
          channel,
          limit: this.deps.rates.limitOf(channel)!,
          perSecond: Math.round((count / (RATE_WINDOW_MS / 1000)) * 10) / 10,
        };
      }),
    );
  }

  /**
   * The keys (record and channel) a resend sends again. A resend repairs what did not go out: a record
   * whose latest attempt on a channel failed or bounced is sent again on those channels only (a channel
   * it was never sent on goes too, as in any send), and its channels that went out are skipped, so a
   * record whose e-mail was delivered and whose WhatsApp failed gets no second e-mail. A record none of
   * whose channels failed is sent again on every channel.
   */
  private async resendKeys(
    owned: records.RecordRow[],
    attempts: deliveries.DeliveryRow[],
  ): Promise<Set<string>> {
    const latest = new Map<string, DeliveryStatus>();
    for (const delivery of await deliveries.deliveriesForRecords(
      this.deps.db,
      owned.map((row) => row.id),
    ))
      latest.set(deliveries.activeKey(delivery.record_id, delivery.channel), delivery.status);
    const didNotGo = (key: string) =>
      latest.get(key) === 'failed' || latest.get(key) === 'bounced' || latest.get(key) === 'not_serviceable';
    const withFailure = new Set(attempts.filter((a) => didNotGo(a.active_key!)).map((a) => a.record_id));
    return new Set(
      attempts
        .filter((a) => !withFailure.has(a.record_id) || didNotGo(a.active_key!))
        .map((a) => a.active_key!),
    );
  }

  /**
   * Of the attempts this send would make (wouldSendOf), those to addresses that bounced or failed for
   * good before. With BOUNCED_ADDRESSES=confirm (the default) any answers 409 saying how many
   * addresses, until the send is asked again with confirmBounced; with skip they are left out
   * (answered as bouncedBefore).
   */
  private async undeliverableAttempts(
    ownerId: string,
    wouldSend: deliveries.DeliveryRow[],
    confirmed: boolean,
  ): Promise<Set<string>> {
    const setting = this.deps.bouncedAddresses ?? 'confirm';
    if (wouldSend.length === 0 || (setting === 'confirm' && confirmed)) return new Set();
    const remembered = new Set<string>();
    for (const channel of Object.keys(this.channels) as Channel[]) {
      const addresses = wouldSend.filter((a) => a.channel === channel).map((a) => a.recipient);
      for (const row of await undeliverable.findRemembered(this.deps.db, ownerId, channel, addresses))
        remembered.add(`${channel}:${row.address}`);
    }
    const keyOf = (a: deliveries.DeliveryRow) =>
      `${a.channel}:${undeliverable.addressKey(a.channel, a.recipient)}`;
    const hits = wouldSend.filter((a) => remembered.has(keyOf(a)));
    if (hits.length === 0) return new Set();
    if (setting === 'confirm') {
      const count = new Set(hits.map(keyOf)).size;
      throw new AppError(
        409,
        'BOUNCED_BEFORE',
        `${count} ${count === 1 ? 'address' : 'addresses'} bounced or failed before. Send to ${count === 1 ? 'it' : 'them'} anyway?`,
        { bouncedBefore: String(count) },
      );
    }
    return new Set(hits.map((a) => a.id));
  }

  /** The attempts that hold these attempts' keys now, by key: one read for the send's checks. */
  private async holders(
    attempts: deliveries.DeliveryRow[],
  ): Promise<Map<string | null, deliveries.DeliveryRow>> {
    return new Map(
      (
        await deliveries.findActive(
          this.deps.db,
          attempts.map((a) => a.active_key!),
        )
      ).map((d) => [d.active_key, d]),
    );
  }

  /** Per channel, the records of `rows` another campaign served on it within RESERVE_WARN_DAYS. */
  private async servedRecently(ownerId: string, kind: RecordKind, recordIds: string[]): Promise<Set<string>> {
    const days = this.deps.reserveWarnDays ?? 30;
    if (days <= 0 || recordIds.length === 0) return new Set();
    const since = new Date(Date.now() - days * 86_400_000).toISOString();
    const rows = await deliveries.findServedRecently(
      this.deps.db,
      recordKinds[kind].table,
      kind === 'notice' ? 'loanNo' : 'aanNo',
      ownerId,
      [...new Set(recordIds)],
      since,
    );
    return new Set(rows.map((row) => deliveries.activeKey(row.record_id, row.channel)));
  }

  /**
   * A send to borrowers another campaign served on the same channel within RESERVE_WARN_DAYS answers
   * 409 SERVED_RECENTLY with how many, and nothing is claimed, until asked again with
   * confirmServedRecently (as the bounced-address check does with confirmBounced).
   */
  private async askServedRecently(
    ownerId: string,
    kind: RecordKind,
    wouldSend: deliveries.DeliveryRow[],
  ): Promise<void> {
    const served = await this.servedRecently(
      ownerId,
      kind,
      wouldSend.map((a) => a.record_id),
    );
    const borrowers = new Set(wouldSend.filter((a) => served.has(a.active_key!)).map((a) => a.record_id));
    if (borrowers.size === 0) return;
    const days = this.deps.reserveWarnDays ?? 30;
    const count = borrowers.size;
    throw new AppError(
      409,
      'SERVED_RECENTLY',
      `${count} ${count === 1 ? 'borrower was' : 'borrowers were'} served a notice in the last ${days} days`,
      { servedRecently: String(count) },
    );
  }

  /**
   * What a send of these records of the campaign (every record when none is named) would do, per
   * channel: how many go, how many are left out as not serviceable, how many were sent before, and how
   * many borrowers another campaign served within RESERVE_WARN_DAYS. Changes nothing.
   */
  async summary(
    ownerId: string,
    campaignId: string,
    ids: string[] | undefined,
    channel: Channel | undefined,
  ): Promise<SendSummary> {
    const campaign = await findCampaign(this.deps.db, ownerId, campaignId);
    if (!campaign) throw notFound('Campaign');
    const info = recordKinds[campaign.kind];
    const rows = (
      ids
        ? await records.findRecordsByIds(this.deps.db, info, ownerId, [...new Set(ids)])
        : await records.listCampaignRecords(
            this.deps.db,
            info,
            ownerId,
            campaignId,
            0,
            Number.MAX_SAFE_INTEGER,
          )
    ).filter((row) => row.campaign_id === campaignId);
    // SMS is counted when asked for, or when a record goes by it.
    const bySms = rows.some((row) => this.channelsOf(campaign.kind, row).includes('sms'));
    const channels: Channel[] = channel
      ? [channel]
      : ['email', 'whatsapp', ...(bySms ? ['sms' as const] : [])];
    const keys = rows.flatMap((row) => channels.map((c) => deliveries.activeKey(row.id, c)));
    const held = new Set<string>();
    for (let i = 0; i < keys.length; i += 500)
      for (const d of await deliveries.findActive(this.deps.db, keys.slice(i, i + 500)))
        if (d.active_key) held.add(d.active_key);
    const served = await this.servedRecently(
      ownerId,
      campaign.kind,
      rows.map((row) => row.id),
    );
    const counts = channels.map((c): SendSummaryChannel => {
      const counted: SendSummaryChannel = {
        channel: c,
        records: 0,
        toSend: 0,
        notServiceable: 0,
        servedRecently: 0,
        sentBefore: 0,
      };
      for (const row of rows) {
        if (!this.channelsOf(campaign.kind, row).includes(c)) continue;
        counted.records += 1;
        const key = deliveries.activeKey(row.id, c);
        if (held.has(key)) counted.sentBefore += 1;
        else if (unserviceableReason(c, recordAddress(row, c), this.deps.defaultCountryCode) !== null)
          counted.notServiceable += 1;
        else {
          counted.toSend += 1;
          if (served.has(key)) counted.servedRecently += 1;
        }
      }
      return counted;
    });
    return {
      records: rows.length,
      threshold: this.deps.bulkSendConfirmThreshold ?? 50,
      reserveWarnDays: this.deps.reserveWarnDays ?? 30,
      channels: counts,
    };
  }

  /**
   * Sends one record's notice, rendered as a send renders it, by the real channel to an address the
   * person typed (a colleague's), to see it before a bulk send. Not service: no delivery is written for
   * the record; the audit log keeps it as a test send.
   */
  async testSend(ownerId: string, campaignId: string, body: TestSendBody): Promise<TestSendResult> {
    const to = body.to.trim();
    const adapter = this.adapter(body.channel);
    const reason = unserviceableReason(body.channel, to, this.deps.defaultCountryCode);
    if (reason !== null) {
      const what = `${body.channel === 'email' ? 'an' : 'a'} ${adapter.addressName}`;
      throw badRequest(`to is not ${what} a test can go to: ${reason}.`, {
        to: `Not ${what} a test can go to: ${reason}.`,
      });
    }
    const campaign = await findCampaign(this.deps.db, ownerId, campaignId);
    if (!campaign) throw notFound('Campaign');
    const kind = campaign.kind;
    const info = recordKinds[kind];
    const row = body.recordId
      ? await records.findRecord(this.deps.db, info, ownerId, body.recordId)
      : (await records.listCampaignRecords(this.deps.db, info, ownerId, campaignId, 0, 1))[0];
    if (!row || row.campaign_id !== campaignId)
      throw body.recordId ? notFound('Record') : badRequest('The campaign has no records to send a test of.');
    await adapter.readyFor(kind);
    const [pdf] = await this.deps.pdfs.pdfsFor(kind, [row]);
    if (!pdf) throw new AppError(422, 'NOT_RENDERED', 'The notice could not be rendered.');
    if ('refused' in pdf) throw new AppError(422, 'NOTICE_CANNOT_PRINT', pdf.refused);
    const send = await adapter.prepare(kind).catch((err: Error) => {
      throw new AppError(422, 'NO_TEMPLATE', err.message);
    });
    const now = nowIso();
    // A delivery in memory only: sendOne sends what it names, and nothing of it is stored.
    const test: deliveries.DeliveryRow = {
      id: newId(),
      owner_id: ownerId,
      record_kind: kind,
      record_id: row.id,
      campaign_id: campaignId,
      channel: body.channel,
      active_key: null,
      recipient: to,
      recipient_name: row.custName ?? '',
      ...queuedAt(now),
    };
    let receipt: SendReceipt;
    try {
      await this.deps.rates.take(body.channel, new AbortController().signal);
      receipt = await this.sendOne(send, test, row, pdf.pdf);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new AppError(502, 'TEST_SEND_FAILED', `The test was not sent: ${message}`);
    }
    const channelName = adapter.label;
    await appendAudit(this.deps.db, {
      actorId: ownerId,
      action: 'notice.test-send',
      subjectType: kind,
      subjectId: row.id,
      summary: `Test send of a ${info.label.toLowerCase()} notice by ${channelName} to ${to} (not service)`,
      after: { campaign: campaignId, record: row.id, channel: body.channel, to, via: receipt.status },
    });
    return {
      message: `Test sent by ${channelName} to ${to}.`,
      channel: body.channel,
      to,
      via: receipt.status === 'outbox' ? 'outbox' : 'provider',
    };
  }

  /**
   * Staff send a campaign a chunk at a time, in campaign order: while this chunk goes out, the next
   * records of the campaign are rendered, so the next request finds its PDFs ready.
   */
  private renderAhead(kind: RecordKind, ownerId: string, sent: records.RecordRow[]): void {
    const last = sent.reduce<records.RecordRow | undefined>((a, b) => (!a || b.id > a.id ? b : a), undefined);
    if (!last) return;
    const info = recordKinds[kind];
    void records
      .listCampaignRecordsAfter(this.deps.db, info, ownerId, last.campaign_id, last.id, RENDER_AHEAD)
      .then((next) => this.deps.pdfs.ensure(kind, next))
      .catch(() => undefined);
  }

  private enqueue(db: Database, ownerId: string, kind: RecordKind, deliveryIds: string[]): Promise<string> {
    // Each send is its own subject: sends never wait for one another, unlike one owner's imports.
    return enqueue(db, SEND_JOB, {
      ownerId,
      subject: `send:${newId()}`,
      payload: { kind, deliveryIds },
      maxAttempts: SEND_ATTEMPTS,
    });
  }

  /**
   * Waits until `ended` says so or `until` passes: told at once by this process's worker when a job
   * settles, and checked in the database now and then for a worker elsewhere.
   */
  private async waitFor(until: number, ended: () => Promise<boolean>): Promise<void> {
    while (Date.now() < until) {
      if (await ended()) return;
      await new Promise<void>((resolve) => {
        const events = this.deps.jobEvents;
        const onSettled = () => done();
        const timer = setTimeout(() => done(), 250);
        const done = () => {
          clearTimeout(timer);
          events?.off('settled', onSettled);
          resolve();
        };
        events?.on('settled', onSettled);
      });
    }
  }

  /** Whether the job has finished its first attempt (done, failed, or waiting to retry). */
  private async firstAttemptEnded(jobId: string, ownerId: string): Promise<boolean> {
    const job = await findJob(this.deps.db, jobId, ownerId);
    return (
      !job ||
      job.status === 'done' ||
      job.status === 'failed' ||
      (job.status === 'queued' && job.attempts > 0)
    );
  }

  /**
   * Whether the sends a resend joined have an answer: sent or failed, or told by the provider to wait
   * (a queued delivery with an error). Their job is another request's, so the deliveries themselves say.
   */
  private async attemptsEnded(deliveryIds: string[]): Promise<boolean> {
    const rows = await deliveries.findDeliveries(this.deps.db, deliveryIds);
    return rows.every((d) => d.status !== 'queued' || d.error !== null);
  }

  /** The send job: every delivery still queued is sent; those asked to wait make the job retry later. */
  async runSendJob(context: JobContext, { kind, deliveryIds }: SendJobPayload): Promise<void> {
    const info = recordKinds[kind];
    const pending = (await deliveries.findDeliveries(this.deps.db, deliveryIds)).filter(
      (d) => d.status === 'queued' && d.active_key,
    );
    if (pending.length === 0) return;
    const rows = await records.findRecordsByIds(this.deps.db, info, context.job.owner_id, [
      ...new Set(pending.map((d) => d.record_id)),
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const lastAttempt = context.job.attempts >= context.job.max_attempts;
    // A job that gives up for good leaves no send to join: what it had left fails, saying why.
    const givingUp = async (err: Error) => {
      if (err instanceof PermanentJobError || lastAttempt)
        for (const delivery of pending)
          await deliveries.advanceStatus(this.deps.db, delivery, 'failed', nowIso(), { error: err.message });
      return err;
    };
    let rendered: Map<string, RenderedPdf | RefusedPdf>;
    try {
      const pdfs = await this.deps.pdfs.pdfsFor(kind, rows);
      rendered = new Map(rows.map((row, i) => [row.id, pdfs[i]!]));
    } catch (err) {
      throw await givingUp(new Error(`Rendering the notices failed: ${(err as Error).message}`));
    }
    // Each channel's message, made ready once for the job (its templates).
    const senders = new Map<Channel, SendMessage>();
    try {
      for (const channel of new Set(pending.map((d) => d.channel)))
        senders.set(channel, await this.adapter(channel).prepare(kind));
    } catch (err) {
      throw await givingUp(err as Error);
    }
    // Each record's notice page code, made before its message goes: every message and resend carries the same.
    const codes = this.deps.noticeLinks
      ? await this.deps.noticeLinks.linksFor(kind, rows)
      : new Map<string, string>();
    let waiting = 0;
    /** The latest time a provider asked to wait until (131056: one number's window). */
    let retryAt = 0;
    const queue = [...pending];
    const { sendWindow } = this.deps;
    let closedAt: Date | undefined;
    const worker = async () => {
      for (let delivery = queue.shift(); delivery; delivery = queue.shift()) {
        // A worker that lost its lease stops at once: another has taken the job over.
        if (context.signal.aborted) return;
        if (sendWindow && !isOpen(sendWindow, new Date())) {
          // The sending hours closed mid-job: what is left waits, still queued, for them to open.
          closedAt ??= new Date();
          return;
        }
        const row = byId.get(delivery.record_id);
        const now = nowIso();
        if (!row) {
          await deliveries.advanceStatus(this.deps.db, delivery, 'failed', now, {
            error: 'The record was deleted before it was sent.',
          });
          continue;
        }
        const pdf = rendered.get(row.id)!;
        if ('refused' in pdf) {
          // This record's notice cannot print (a character no bundled font covers): it fails, with why.
          await deliveries.advanceStatus(this.deps.db, delivery, 'failed', now, { error: pdf.refused });
          continue;
        }
        let receipt: SendReceipt;
        try {
          // The provider's limit, shared by every worker: wait for this message's turn.
          await this.deps.rates.take(delivery.channel, context.signal);
          // Marked before it leaves: if this process dies before the answer is recorded, the next
          // attempt sends it again under the same message id, which the receiving side can dedupe on.
          const adapter = this.adapter(delivery.channel);
          const recordAddress = adapter.addressOf(row);
          const note = addressChange(delivery, recordAddress, adapter.addressName);
          await this.handOvers.add({ delivery, at: now, recordAddress, note });
          const asked = Date.now();
          receipt = await this.sendOne(
            senders.get(delivery.channel)!,
            delivery,
            row,
            pdf.pdf,
            codes.get(row.id),
          ).finally(() =>
            providerSeconds.observe({ channel: delivery.channel }, (Date.now() - asked) / 1000),
          );
        } catch (err) {
          const error =
            err instanceof PermanentSendError || err instanceof TransientSendError
              ? err
              : new TransientSendError((err as Error).message);
          const permanent = error instanceof PermanentSendError;
          providerErrors.inc({ channel: delivery.channel, kind: permanent ? 'permanent' : 'transient' });
          if (permanent || lastAttempt) sends.inc({ channel: delivery.channel, status: 'failed' });
          if (error instanceof PermanentSendError || lastAttempt) {
            // A channel whose refusals are about the address (a mail server's: no such mailbox)
            // remembers it; WhatsApp's and SMS's are as often about the template: not remembered.
            if (error instanceof PermanentSendError && this.channels[delivery.channel]?.remembersRefusals)
              await undeliverable.remember(this.deps.db, {
                owner_id: delivery.owner_id,
                channel: delivery.channel,
                address: delivery.recipient,
                delivery_id: delivery.id,
                reason: error.message,
                at: nowIso(),
              });
            await deliveries.advanceStatus(this.deps.db, delivery, 'failed', nowIso(), {
              error: error.message,
              pdf_sha256: pdf.sha256,
              pdf_key: pdf.key,
            });
          } else {
            waiting += 1;
            if (error.retryAfterMs) retryAt = Math.max(retryAt, Date.now() + error.retryAfterMs);
            await deliveries.noteRetry(this.deps.db, delivery.id, error.message, nowIso());
          }
          continue;
        }
        // The provider took the message. Its answer is recorded outside the provider's try: a database
        // that failed the write (a batch of four, under load on PostgreSQL) once had four mails taken for
        // "try later" and sent twice. A write that fails even when retried fails the job, with the
        // delivery handed over, as a crash leaves it.
        sends.inc({ channel: delivery.channel, status: receipt.status });
        await this.outcomes.add({
          delivery,
          status: receipt.status,
          at: nowIso(),
          changes: {
            provider_message_id: receipt.messageId,
            pdf_sha256: pdf.sha256,
            pdf_key: pdf.key,
            media_id: receipt.mediaId ?? null,
            error: null,
          },
        });
      }
    };
    // Every worker ends its queue before the job's outcome is known: a worker whose write failed
    // leaves none of the others sending after the job was given up (and taken again).
    const ended = await Promise.allSettled(Array.from({ length: PARALLEL }, worker));
    const failed = ended.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    if (closedAt && sendWindow)
      throw new RetryAtError(closedMessage(sendWindow, closedAt), nextOpening(sendWindow, closedAt));
    const retrying = `${waiting} message(s) will be retried: the provider asked to try later.`;
    if (waiting > 0 && retryAt > Date.now() + this.deps.firstRetryMs)
      throw new RetryAtError(retrying, new Date(retryAt));
    if (waiting > 0) throw new TransientSendError(retrying);
  }

  /**
   * Sends one message by its channel's adapter, to the address recorded when the send was asked, never
   * the record's own now: the evidence shows this address, so this is where the notice goes.
   */
  private async sendOne(
    send: SendMessage,
    delivery: deliveries.DeliveryRow,
    row: Record<string, string>,
    pdf: Buffer,
    /** The record's notice page code: the message links to its page. */
    code?: string,
  ): Promise<SendReceipt> {
    if (!delivery.recipient.trim())
      throw new PermanentSendError(
        `The record had no ${this.adapter(delivery.channel).addressName} when the send was asked.`,
      );
    return send({ delivery, row, pdf, code });
  }
}

/**
 * The attempts a send would make (by id): a key no send holds, or one a resend sends again whose
 * holder is not still queued. A record already sent (and not resent) is skipped, so is not judged.
 */
function wouldSendOf(
  attempts: deliveries.DeliveryRow[],
  /** The keys a resend sends again (resendKeys). */
  again: Set<string>,
  held: Map<string | null, deliveries.DeliveryRow>,
): Set<string> {
  return new Set(
    attempts
      .filter((a) => {
        const holder = held.get(a.active_key);
        return !holder || (again.has(a.active_key!) && holder.status !== 'queued');
      })
      .map((a) => a.id),
  );
}

/** How many messages each reason left out, per channel: what the send's answer says about them. */
function reasonCounts(left: deliveries.DeliveryRow[]): NonNullable<SendResult['notServiceableReasons']> {
  const counts = new Map<string, { channel: Channel; reason: string; count: number }>();
  for (const a of left) {
    const key = `${a.channel}:${a.error}`;
    const entry = counts.get(key) ?? { channel: a.channel, reason: a.error ?? '', count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  return [...counts.values()];
}

/** In words, when the record was edited after the send was asked: which address goes, and which does not. */
function addressChange(delivery: deliveries.DeliveryRow, recordAddress: string, name: string): string | null {
  if (recordAddress.trim() === delivery.recipient.trim()) return null;
  if (!delivery.recipient.trim())
    return `The record had no ${name} when the send was asked and has '${recordAddress}' now; it is not sent there.`;
  const now = recordAddress.trim() ? `changed to '${recordAddress}'` : 'removed';
  return `The record's ${name} was ${now} after the send was asked; it goes to '${delivery.recipient}', recorded then.`;
}
