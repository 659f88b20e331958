import { z } from 'zod';

/**
 * The fallback between channels (issue 31): a campaign's ladder, or its record kind's default that an
 * ADMIN sets. A record's ladder starts when the record is first sent in the campaign (its first
 * delivery); each step is taken once, `after` hours later, unless the record reached what `unless`
 * names by then: e-mail and WhatsApp now, SMS if neither is delivered within 24 hours, Speed Post if
 * the notice page is not opened within 7 days.
 */
export const ladderChannels = ['email', 'whatsapp', 'sms', 'post'] as const;
export type LadderChannel = (typeof ladderChannels)[number];

/**
 * What makes a step unneeded: a message `delivered` (or read) on any channel, a message `read`, the
 * notice page `opened` (its check passed), or the notice `acknowledged` on its page.
 */
export const ladderConditions = ['delivered', 'read', 'opened', 'acknowledged'] as const;
export type LadderCondition = (typeof ladderConditions)[number];

/** A year: no step waits longer. */
export const LADDER_MAX_HOURS = 8760;
export const LADDER_MAX_STEPS = 8;

const channelList = ladderChannels.map((c) => `'${c}'`).join(', ');
const conditionList = ladderConditions.map((c) => `'${c}'`).join(', ');

export const ladderStep = z.object({
  channel: z.enum(ladderChannels, { error: `channel must be one of ${channelList}.` }),
  after: z
    .number({ error: 'after must be a whole number of hours after the first send.' })
    .int({ error: 'after must be a whole number of hours after the first send.' })
    .min(0, { error: `after must be from 0 to ${LADDER_MAX_HOURS} hours.` })
    .max(LADDER_MAX_HOURS, { error: `after must be from 0 to ${LADDER_MAX_HOURS} hours.` }),
  unless: z.enum(ladderConditions, { error: `unless must be one of ${conditionList}.` }).nullish(),
});
export type LadderStep = z.infer<typeof ladderStep>;

/**
 * A ladder: `channels`, the channels the campaign serves on (post among them with no post step: every
 * record is a post record from the start, credit cards too), and `steps`, in the order of `after`, each
 * on one of those channels and each channel at most once (a record gets one message a step).
 */
export const ladderBody = z
  .object({
    channels: z
      .array(z.enum(ladderChannels, { error: `channels must each be one of ${channelList}.` }), {
        error: `channels must be a list of ${channelList}.`,
      })
      .min(1, { error: 'channels must name at least one channel.' }),
    steps: z
      .array(ladderStep, { error: 'steps must be a list of { channel, after, unless }.' })
      .max(LADDER_MAX_STEPS, { error: `steps must be at most ${LADDER_MAX_STEPS}.` }),
  })
  .superRefine((body, ctx) => {
    body.channels.forEach((channel, i) => {
      if (body.channels.indexOf(channel) !== i)
        ctx.addIssue({ code: 'custom', path: ['channels', i], message: `${channel} is named twice.` });
    });
    body.steps.forEach((step, i) => {
      if (!body.channels.includes(step.channel))
        ctx.addIssue({
          code: 'custom',
          path: ['steps', i, 'channel'],
          message: `${step.channel} is not one of the campaign's channels; add it to channels first.`,
        });
      else if (body.steps.findIndex((s) => s.channel === step.channel) !== i)
        ctx.addIssue({
          code: 'custom',
          path: ['steps', i, 'channel'],
          message: `${step.channel} has a step already; a channel is used once in a ladder.`,
        });
      const before = body.steps[i - 1];
      if (before && step.after < before.after)
        ctx.addIssue({
          code: 'custom',
          path: ['steps', i, 'after'],
          message: `after must not be less than the step before's (${before.after} hours): steps go in time order.`,
        });
    });
  });
export type LadderBody = z.input<typeof ladderBody>;

export interface Ladder {
  channels: LadderChannel[];
  steps: { channel: LadderChannel; after: number; unless: LadderCondition | null }[];
}

/** A campaign's ladder as it runs: its own, its record kind's default, or none (no step runs). */
export interface CampaignLadder {
  campaignId: string;
  ladder: Ladder | null;
  source: 'campaign' | 'kind' | null;
  updatedAt: string | null;
}

export interface KindLadder {
  kind: 'notice' | 'credit-card';
  ladder: Ladder | null;
  updatedAt: string | null;
}

export const ladderPaths = {
  campaign: (id: string) => `/api/campaigns/${encodeURIComponent(id)}/ladder`,
  kind: (kind: string) => `/api/ladder-defaults/${encodeURIComponent(kind)}`,
};

/** A channel's name in a sentence. */
export const ladderChannelWords: Record<LadderChannel, string> = {
  email: 'e-mail',
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  post: 'Speed Post',
};

/** '24 hours', '7 days': a step's wait as a person reads it. */
export function hoursWords(hours: number): string {
  if (hours >= 48 && hours % 24 === 0) return `${hours / 24} days`;
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

/** A step in words: 'SMS after 24 hours unless delivered'. */
export function stepWords(step: Ladder['steps'][number]): string {
  const when = step.after === 0 ? 'at once' : `after ${hoursWords(step.after)}`;
  return `${ladderChannelWords[step.channel]} ${when}${step.unless ? ` unless ${step.unless}` : ''}`;
}

/** Whether a ladder makes every record a post record from the first send: post among its channels, with no post step. */
export function postFromStart(ladder: Ladder | null): boolean {
  return !!ladder && ladder.channels.includes('post') && !ladder.steps.some((s) => s.channel === 'post');
}
