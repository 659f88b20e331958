import type { SendResult } from '@notice-desk/contract/sending';

/** The spec's send-notice batch size. */
export const SEND_CHUNK_SIZE = 10;
/** The spec: up to this many selected records go in one request; more are sent in chunks. */
export const SINGLE_REQUEST_MAX = 9;
/** Where the bar starts when the first chunk goes out. */
export const FIRST_PROGRESS = 10;

/** The requests a send makes: one for 9 or fewer records, else chunks of 10 sent one after another. */
export function sendChunks(recordIds: readonly string[]): string[][] {
  if (recordIds.length === 0) return [];
  if (recordIds.length <= SINGLE_REQUEST_MAX) return [[...recordIds]];
  const chunks: string[][] = [];
  for (let start = 0; start < recordIds.length; start += SEND_CHUNK_SIZE) {
    chunks.push(recordIds.slice(start, start + SEND_CHUNK_SIZE));
  }
  return chunks;
}

/**
 * The bar's value after `chunksDone` of `chunks` requests. The spec says it "starts at 10, adds 10
 * per chunk relative to the selection size, capped at 100". Read literally (10 + 10 × 100 /
 * selected per chunk) it reaches 100 a chunk before the end and then stands still, because the
 * starting 10 comes on top of the whole run. This reading keeps the start at 10 and shares the
 * remaining 90 equally among the chunks, so each chunk moves it the same step and the last one
 * lands on 100 exactly.
 */
export function sendProgress(chunksDone: number, chunks: number): number {
  if (chunks <= 0) return 100;
  const done = Math.min(Math.max(chunksDone, 0), chunks);
  return Math.min(100, FIRST_PROGRESS + Math.round(((100 - FIRST_PROGRESS) * done) / chunks));
}

/**
 * The line under the send's bar: the spec titles the bar 'Import File Progress Bar', so this says
 * what it counts, in records, with India's digit grouping.
 */
export function sendCaption(recordsDone: number, records: number): string {
  const count = (n: number) => n.toLocaleString('en-IN');
  return `Sending notices: ${count(recordsDone)} of ${count(records)} records`;
}

/** What a whole send came to, over all its requests. */
export type SendTally = Omit<SendResult, 'message'> & {
  /** Records whose request failed outright (network, time-out, server error). */
  unsent: number;
  /** Requests the server answered. */
  answered: number;
  /** Records not sent because the person chose not to send to addresses that bounced before. */
  declined?: number;
  /** Records not sent because the person chose not to serve again borrowers served recently. */
  servedDeclined?: number;
};

export const emptyTally = (): SendTally => ({
  sent: 0,
  failed: 0,
  queued: 0,
  skipped: 0,
  ignored: 0,
  bouncedBefore: 0,
  notServiceable: 0,
  unsent: 0,
  answered: 0,
});

export function addAnswer(tally: SendTally, result: SendResult): SendTally {
  return {
    ...tally,
    sent: tally.sent + result.sent,
    failed: tally.failed + result.failed,
    queued: tally.queued + result.queued,
    skipped: tally.skipped + result.skipped,
    ignored: tally.ignored + result.ignored,
    bouncedBefore: (tally.bouncedBefore ?? 0) + (result.bouncedBefore ?? 0),
    notServiceable: (tally.notServiceable ?? 0) + (result.notServiceable ?? 0),
    answered: tally.answered + 1,
  };
}

export function addUnsent(tally: SendTally, records: number): SendTally {
  return { ...tally, unsent: tally.unsent + records };
}

export function addDeclined(tally: SendTally, records: number): SendTally {
  return { ...tally, declined: (tally.declined ?? 0) + records };
}

export function addServedDeclined(tally: SendTally, records: number): SendTally {
  return { ...tally, servedDeclined: (tally.servedDeclined ?? 0) + records };
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What a send came to, when it was not simply 'everything went out' ('Sent 8; 2 failed (see the
 * reasons)', 'Nothing new to send: 18 were sent before'), or null when everything was sent. Sent,
 * failed, waiting, skipped and left-out count messages (e-mail and WhatsApp each count); the rest
 * count records.
 */
export function sendSummary(tally: SendTally): string | null {
  const bouncedBefore = tally.bouncedBefore ?? 0;
  const extras = [
    tally.failed > 0 && `${tally.failed} failed (see the reasons)`,
    tally.queued > 0 && `${tally.queued} waiting to be retried`,
    tally.skipped > 0 && `${tally.skipped} ${tally.skipped === 1 ? 'was' : 'were'} sent before`,
    bouncedBefore > 0 && `${bouncedBefore} left out: the address bounced or failed before`,
    (tally.notServiceable ?? 0) > 0 &&
      `${tally.notServiceable} left out: the address is not serviceable (see the reasons)`,
    tally.unsent > 0 && `${count(tally.unsent, 'record', 'records')} not sent (the request failed)`,
    (tally.declined ?? 0) > 0 &&
      `${count(tally.declined ?? 0, 'record', 'records')} not sent: an address bounced or failed before`,
    (tally.servedDeclined ?? 0) > 0 &&
      `${count(tally.servedDeclined ?? 0, 'record', 'records')} not sent: served recently by another campaign`,
    tally.ignored > 0 && `${count(tally.ignored, 'record', 'records')} not found`,
  ].filter((part): part is string => typeof part === 'string');
  if (extras.length === 0) return null;
  const onlySentBefore = tally.sent === 0 && tally.skipped > 0 && extras.length === 1 && tally.unsent === 0;
  if (onlySentBefore)
    return `Nothing new to send: ${tally.skipped} ${tally.skipped === 1 ? 'was' : 'were'} sent before`;
  return [`Sent ${tally.sent}`, ...extras].join('; ');
}

/** A provider limit is said to hold a send back once the channel goes out at this share of it. */
const HELD_BACK_SHARE = 0.9;

const channelNames = { email: 'E-mail', whatsapp: 'WhatsApp', sms: 'SMS' } as const;

/**
 * What the bar says about speed: the messages a second the send has achieved so far (e-mail and
 * WhatsApp each count), and, when a provider limit is what holds it back (the server says the channel
 * goes out at nearly its limit), which ('WhatsApp limited to 20/s'). Null before there is anything to say.
 */
export function sendRateText(
  tally: SendTally,
  elapsedMs: number,
  rates: SendResult['rates'] = [],
): string | null {
  const messages = tally.sent + tally.failed;
  if (messages === 0 || elapsedMs <= 0) return null;
  const perSecond = (messages * 1000) / elapsedMs;
  const shown = perSecond < 10 ? perSecond.toFixed(1) : String(Math.round(perSecond));
  const limits = rates
    .filter((rate) => rate.perSecond >= rate.limit * HELD_BACK_SHARE)
    .map((rate) => `${channelNames[rate.channel]} limited to ${rate.limit}/s`);
  return [`${shown} messages a second`, ...limits].join('; ');
}
