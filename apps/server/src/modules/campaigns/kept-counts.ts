import type { SingleCampaign } from '@notice-desk/contract/campaigns';

/** The campaign page's counts over the whole campaign, whatever page or filter is shown. */
export type CampaignCounts = Pick<
  SingleCampaign,
  'completedCounts' | 'statusCounts' | 'notServiceable' | 'serviceCounts'
>;

/** The counts, and how many live records the campaign has (the page's total with no filter or search). */
export interface CampaignTotals {
  counts: CampaignCounts;
  records: number;
}

/** Totals as computed, and until when they hold with no write (ms since the epoch; Infinity: for ever). */
export interface CountedAt extends CampaignTotals {
  until: number;
}

/** What a campaign's kept counts were computed for. */
export interface CountsKey {
  /** The owner and the campaign. */
  campaign: string;
  /** The campaign's count version, read before the counts (campaigns.repository countsVersion). */
  version: number;
  /** The respond-by windows the counts were taken over (they move with the day and the legal basis). */
  windows: string;
}

interface Kept extends Omit<CountsKey, 'campaign'> {
  answer: Promise<CountedAt>;
}

/** How many campaigns' counts a process keeps: a few numbers each. */
const KEPT_CAMPAIGNS = 200;

/**
 * The campaign page's counts, computed once per change and kept in this process: 1-2 s of queries
 * for 100,000 records, answered again while the campaign's count version, which triggers move with
 * every write the counts read, and the respond-by windows are those they were computed for, and their
 * `until` has not passed. Since the version is read from the database before the counts are, a
 * process never answers counts older than the last write it can see, whichever process wrote it.
 * Readers of the same version while the counts are computed wait for that one computation.
 */
export class KeptCounts {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly limit = KEPT_CAMPAIGNS) {}

  async get(
    { campaign, version, windows }: CountsKey,
    count: () => Promise<CountedAt>,
  ): Promise<CampaignTotals> {
    const kept = this.kept.get(campaign);
    if (kept && kept.version === version && kept.windows === windows) {
      const answer = await kept.answer.catch(() => undefined);
      if (answer && Date.now() < answer.until) {
        // The most recently read stay; the least recently read go first.
        this.kept.delete(campaign);
        this.kept.set(campaign, kept);
        return answer;
      }
    }
    const fresh: Kept = { version, windows, answer: count() };
    // A reader that read the version before another's write keeps no counts over that writer's.
    if (kept && kept.version > version) return await fresh.answer;
    this.kept.delete(campaign);
    this.kept.set(campaign, fresh);
    while (this.kept.size > this.limit) this.kept.delete(this.kept.keys().next().value!);
    try {
      return await fresh.answer;
    } catch (error) {
      if (this.kept.get(campaign) === fresh) this.kept.delete(campaign);
      throw error;
    }
  }
}
