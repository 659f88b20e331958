import {
  hoursWords,
  ladderBody,
  ladderChannelWords,
  type CampaignLadder,
  type KindLadder,
  type Ladder,
  type LadderBody,
  type LadderChannel,
  stepWords,
} from '@notice-desk/contract/fallback';
import type { SendResult } from '@notice-desk/contract/sending';
import type { Database } from '../../db/database.ts';
import type { Channel, DeliveryStatus, RecordKind } from '../../db/schema.ts';
import { PeriodicTask } from '../../jobs/periodic-task.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { isOpen, type SendWindow } from '../../lib/send-window.ts';
import { shownAt } from '../../lib/time.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import { findCampaign } from '../campaigns/campaigns.repository.ts';
import * as deliveries from '../sending/deliveries.repository.ts';
import * as fallback from './fallback.repository.ts';

/** What the task needs of the sending service: its one send path, on one channel (a fallback step). */
export interface StepSender {
  send(
    ownerId: string,
    kind: RecordKind,
    ids: string[],
    resend: boolean,
    confirmBounced: boolean,
    confirmServedRecently: boolean,
    only: Channel,
    step: true,
  ): Promise<SendResult>;
}

export interface FallbackDeps {
  db: Database;
  sending: StepSender;
  /** Quiet hours: no step is taken outside them (lib/send-window.ts). */
  sendWindow?: SendWindow | undefined;
  /** TIME_ZONE, for the times the decisions name. */
  timeZone: string;
  /** FALLBACK_CHECK_INTERVAL: how often a turn looks for due steps. */
  everyMs: number;
  /** The task's clock (tests pass their own; never Date faked). */
  clock?: () => Date;
  log: { warn(fields: object, message: string): void };
}

/** Records a turn takes per campaign and step at most; the rest wait for the next turn. */
const BATCH = 200;
/** A claim still 'claimed' this long after its worker took it: the worker died; another takes it over. */
const STALE_CLAIM_MS = 15 * 60_000;

/** What one turn did. */
export interface TurnResult {
  closed: boolean;
  taken: number;
  skipped: number;
  notSent: number;
  /** Claims given back (the send could not start); tried at the next turn. */
  released: number;
  /** Campaigns found with nothing left to decide, which turns read no more (until their ladder changes or they send again). */
  finished: number;
}

type Step = Ladder['steps'][number];
type DeliveryRow = deliveries.DeliveryRow;
interface Decision {
  outcome: 'taken' | 'skipped' | 'not_sent';
  words: string;
  delivery: DeliveryRow | undefined;
}

const channelLabel: Record<string, string> = { ...ladderChannelWords, post: 'post' };

/**
 * The fallback between channels (issue 31): each campaign's ladder (its own, else its record kind's
 * default), and the task that takes each record's due steps once, across every worker, inside the
 * sending hours: a step sends on its channel through the sending service's one path (claims, rates,
 * retries and evidence as for a manual send), or makes the record a post record, or is skipped when
 * the record reached what the step's `unless` names. Every decision is written in words in the
 * record's trail.
 */
export class FallbackService {
  private readonly task: PeriodicTask;
  private readonly clock: () => Date;

  constructor(private readonly deps: FallbackDeps) {
    this.clock = deps.clock ?? (() => new Date());
    this.task = new PeriodicTask(() => this.runDue(), {
      everyMs: deps.everyMs,
      failure: 'fallback steps failed; they will be tried again',
      log: deps.log,
    });
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  async campaignLadder(ownerId: string, campaignId: string): Promise<CampaignLadder> {
    const campaign = await findCampaign(this.deps.db, ownerId, campaignId);
    if (!campaign) throw notFound('Campaign');
    const own = await fallback.findLadder(this.deps.db, 'campaign', campaignId);
    const row = own ?? (await fallback.findLadder(this.deps.db, 'kind', campaign.kind));
    return {
      campaignId,
      ladder: row ? parseLadder(row.ladder) : null,
      source: own ? 'campaign' : row ? 'kind' : null,
      updatedAt: row?.updated_at ?? null,
    };
  }

  async setCampaignLadder(ownerId: string, campaignId: string, body: LadderBody): Promise<CampaignLadder> {
    const campaign = await findCampaign(this.deps.db, ownerId, campaignId);
    if (!campaign) throw notFound('Campaign');
    const ladder = normal(body);
    await this.save(ownerId, 'campaign', campaignId, ladder, `campaign ${campaign.name}`);
    return this.campaignLadder(ownerId, campaignId);
  }

  async kindLadder(kind: RecordKind): Promise<KindLadder> {
    const row = await fallback.findLadder(this.deps.db, 'kind', kind);
    return { kind, ladder: row ? parseLadder(row.ladder) : null, updatedAt: row?.updated_at ?? null };
  }

  async setKindLadder(actorId: string, kind: RecordKind, body: LadderBody): Promise<KindLadder> {
    await this.save(actorId, 'kind', kind, normal(body), `${kind} records`);
    return this.kindLadder(kind);
  }

  private async save(
    actorId: string,
    scope: 'kind' | 'campaign',
    scopeId: string,
    ladder: Ladder,
    what: string,
  ): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const before = await fallback.findLadder(trx, scope, scopeId);
      await fallback.saveLadder(trx, {
        scope,
        scope_id: scopeId,
        ladder: JSON.stringify(ladder),
        updated_at: this.clock().toISOString(),
        updated_by: actorId,
      });
      await appendAudit(trx, {
        actorId,
        action: 'fallback.ladder',
        subjectType: scope === 'kind' ? scopeId : 'campaign',
        subjectId: scope === 'kind' ? null : scopeId,
        summary: `Fallback ladder of ${what}: ${ladderWords(ladder)}`,
        before: before ? { ladder: parseLadder(before.ladder) } : null,
        after: { ladder },
      });
    });
  }

  /**
   * One turn: every campaign's due steps, each (record, step) claimed by its row before it is taken,
   * so two workers never both take one. Nothing is taken outside the sending hours.
   */
  async runDue(): Promise<TurnResult> {
    const now = this.clock();
    const result: TurnResult = { closed: false, taken: 0, skipped: 0, notSent: 0, released: 0, finished: 0 };
    const { sendWindow } = this.deps;
    if (sendWindow && !isOpen(sendWindow, now)) return { ...result, closed: true };
    const nowText = now.toISOString();
    const campaigns = await fallback.campaignsWithLadders(this.deps.db);
    const byId = new Map(campaigns.map((c) => [c.id, c]));
    // Claims a dead worker left: taken over, and decided as any other.
    const stale = await fallback.staleClaims(
      this.deps.db,
      new Date(now.getTime() - STALE_CLAIM_MS).toISOString(),
      BATCH,
    );
    for (const claim of stale) {
      const campaign = byId.get(claim.campaign_id);
      const step = campaign && ladderOf(campaign)?.steps.find((s) => s.channel === claim.channel);
      if (!campaign || !step || !(await fallback.reclaimStep(this.deps.db, claim, nowText))) continue;
      await this.take(campaign, step, [claim.record_id], now, result, claim.claimed_at);
    }
    for (const campaign of campaigns) {
      const ladder = ladderOf(campaign);
      if (!ladder) continue;
      let anyDue = false;
      for (const step of ladder.steps) {
        const startedBy = new Date(now.getTime() - step.after * 3_600_000).toISOString();
        const due = await fallback.dueRecords(
          this.deps.db,
          campaign.id,
          campaign.kind,
          step.channel,
          startedBy,
          BATCH,
        );
        anyDue ||= due.length > 0;
        const claimed: string[] = [];
        for (const record of due) {
          const won = await fallback.claimStep(this.deps.db, {
            record_kind: campaign.kind,
            record_id: record.record_id,
            channel: step.channel,
            owner_id: campaign.owner_id,
            campaign_id: campaign.id,
            step_after: step.after,
            step_unless: step.unless,
            outcome: 'claimed',
            decision: null,
            claimed_at: nowText,
            decided_at: null,
            delivery_id: null,
          });
          if (won) claimed.push(record.record_id);
        }
        if (claimed.length > 0) await this.take(campaign, step, claimed, now, result);
      }
      // A campaign whose every record sent in it has every step decided reads no more: decisions are
      // final, so only a new delivery of it (a record's first send starts its ladder) or another
      // ladder can give it a step to take. Checked only on a turn that found nothing due in it.
      if (!anyDue) {
        const finish = {
          text: (campaign.own ?? campaign.fallback)!,
          channels: ladder.steps.map((s) => s.channel),
        };
        if (await fallback.finishIfDecided(this.deps.db, campaign, finish, nowText)) result.finished += 1;
      }
    }
    return result;
  }

  /** Decides and takes one step for the records this worker claimed. */
  private async take(
    campaign: fallback.LadderCampaign,
    step: Step,
    ids: string[],
    now: Date,
    result: TurnResult,
    /** A stale claim's time: a message on the channel since then is the one its worker sent. */
    claimedAt?: string,
  ): Promise<void> {
    const { db } = this.deps;
    const kind = campaign.kind;
    const all = await deliveries.deliveriesForRecords(db, ids);
    const receipts = await fallback.pageReceipts(db, kind, ids);
    const decide = async (recordId: string, decision: Decision) => {
      await fallback.decideStep(
        db,
        { record_kind: kind, record_id: recordId, channel: step.channel },
        {
          outcome: decision.outcome,
          words: decision.words,
          at: now.toISOString(),
          delivery: decision.delivery && { id: decision.delivery.id, status: decision.delivery.status },
        },
      );
      if (decision.outcome === 'taken') result.taken += 1;
      else if (decision.outcome === 'skipped') result.skipped += 1;
      else result.notSent += 1;
    };
    const toSend: string[] = [];
    const because = new Map<string, string>();
    for (const recordId of ids) {
      const mine = all.filter((d) => d.record_id === recordId && d.campaign_id === campaign.id);
      const latest = mine.at(-1);
      const met = this.conditionMet(
        step,
        mine,
        receipts.filter((r) => r.record_id === recordId),
        now,
      );
      if (met) {
        await decide(recordId, {
          outcome: 'skipped',
          words: `${ladderChannelWords[step.channel]} skipped: ${met.words}`,
          delivery: met.delivery ?? latest,
        });
        continue;
      }
      const cause = this.causeOf(step, mine);
      if (step.channel === 'post') {
        // The record becomes a post record: the print file, labels and booking list list it.
        await decide(recordId, { outcome: 'taken', words: `Speed Post because ${cause}`, delivery: latest });
        continue;
      }
      // The ladder never repeats a channel the record went on (a resend is a person's to ask).
      const went = mine.filter((d) => d.channel === step.channel).at(-1);
      if (went && claimedAt !== undefined && went.created_at >= claimedAt) {
        await decide(recordId, {
          outcome: 'taken',
          words: `${ladderChannelWords[step.channel]} sent because ${cause}`,
          delivery: went,
        });
        continue;
      }
      if (went) {
        await decide(recordId, {
          outcome: 'skipped',
          words: `${ladderChannelWords[step.channel]} skipped: the record went by ${channelLabel[step.channel]} on ${this.shown(went.created_at)} already (${went.status.replace('_', ' ')})`,
          delivery: went,
        });
        continue;
      }
      toSend.push(recordId);
      because.set(recordId, cause);
    }
    if (toSend.length === 0) return;
    const channel = step.channel as Channel;
    const before = new Set(all.map((d) => d.id));
    try {
      await this.deps.sending.send(campaign.owner_id, kind, toSend, false, true, true, channel, true);
    } catch (err) {
      // Nothing was claimed on the channel (a template missing, a channel not set up, the hours
      // closed): the step is given back and tried again at the next turn.
      if (!(err instanceof AppError)) throw err;
      await fallback.releaseClaims(
        db,
        toSend.map((id) => ({ record_kind: kind, record_id: id, channel: step.channel })),
      );
      result.released += toSend.length;
      this.deps.log.warn(
        { campaign: campaign.id, channel, records: toSend.length, err: err.message },
        'a fallback step could not send; it will be tried again',
      );
      return;
    }
    const after = await deliveries.deliveriesForRecords(db, toSend);
    for (const recordId of toSend) {
      const made = after.find((d) => d.record_id === recordId && d.channel === channel && !before.has(d.id));
      const label = ladderChannelWords[step.channel];
      if (!made)
        await decide(recordId, {
          outcome: 'not_sent',
          words: `${label} not sent: the send left the record out (deleted, or its ${channel === 'email' ? 'address' : 'number'} failed before)`,
          delivery: after.filter((d) => d.record_id === recordId).at(-1),
        });
      else if (made.status === 'not_serviceable')
        await decide(recordId, {
          outcome: 'not_sent',
          words: `${label} not sent: ${made.error ?? 'the address cannot be served'}`,
          delivery: made,
        });
      else
        await decide(recordId, {
          outcome: 'taken',
          words: `${label} sent because ${because.get(recordId)}`,
          delivery: made,
        });
    }
  }

  /** Whether the record reached what the step's `unless` names by `now`, in words, and on which delivery. */
  private conditionMet(
    step: Step,
    mine: DeliveryRow[],
    receipts: { event: string; at: string }[],
    now: Date,
  ): { words: string; delivery?: DeliveryRow } | undefined {
    const by = now.toISOString();
    const reached = (statuses: DeliveryStatus[]) =>
      mine
        .filter((d) => statuses.includes(d.status) && d.status_at <= by)
        .sort((a, b) => a.status_at.localeCompare(b.status_at))[0];
    const page = (events: string[]) => receipts.find((r) => events.includes(r.event) && r.at <= by);
    switch (step.unless) {
      case 'delivered':
      case 'read': {
        const d = reached(step.unless === 'read' ? ['read'] : ['delivered', 'read']);
        if (!d) return undefined;
        const verb = d.status === 'read' ? 'read on' : 'delivered by';
        return { words: `${verb} ${channelLabel[d.channel]} on ${this.shown(d.status_at)}`, delivery: d };
      }
      case 'opened': {
        const event = page(['verified', 'acknowledged']);
        return event && { words: `the notice was opened on its page on ${this.shown(event.at)}` };
      }
      case 'acknowledged': {
        const event = page(['acknowledged']);
        return event && { words: `the notice was acknowledged on its page on ${this.shown(event.at)}` };
      }
      default:
        return undefined;
    }
  }

  /** Why a step is taken, in words: what failed, or what did not happen in time. */
  private causeOf(step: Step, mine: DeliveryRow[]): string {
    const within = `within ${hoursWords(step.after)}`;
    switch (step.unless) {
      case 'delivered':
      case 'read': {
        const failed = mine.filter((d) => ['failed', 'bounced', 'not_serviceable'].includes(d.status)).at(-1);
        if (failed) return `${channelLabel[failed.channel]} failed: ${errorWords(failed.error)}`;
        return `nothing was ${step.unless} ${within}`;
      }
      case 'opened':
        return `the notice was not opened ${within}`;
      case 'acknowledged':
        return `the notice was not acknowledged ${within}`;
      default:
        return step.after === 0
          ? 'the ladder sends it at once'
          : `the ladder sends it after ${hoursWords(step.after)}`;
    }
  }

  private shown(iso: string): string {
    return shownAt(iso, this.deps.timeZone);
  }
}

/** A provider's error as short as it is clear: WhatsApp's '(#131026) …' as its code alone. */
function errorWords(error: string | null): string {
  if (!error) return 'no reason given';
  const code = /\(#(\d{3,7})\)/.exec(error)?.[1];
  return code ?? error.replace(/\s+/g, ' ').slice(0, 160);
}

function parseLadder(text: string): Ladder {
  return JSON.parse(text) as Ladder;
}

function ladderOf(campaign: fallback.LadderCampaign): Ladder | undefined {
  const text = campaign.own ?? campaign.fallback;
  return text ? parseLadder(text) : undefined;
}

/** The body as stored: checked again (a service may be called without the route), `unless` null when none. */
function normal(body: LadderBody): Ladder {
  const parsed = ladderBody.parse(body);
  return {
    channels: parsed.channels,
    steps: parsed.steps.map((s) => ({ channel: s.channel, after: s.after, unless: s.unless ?? null })),
  };
}

function ladderWords(ladder: Ladder): string {
  const channels = ladder.channels.map((c: LadderChannel) => ladderChannelWords[c]).join(', ');
  return `channels ${channels}; ${ladder.steps.map(stepWords).join('; ') || 'no steps'}`;
}
