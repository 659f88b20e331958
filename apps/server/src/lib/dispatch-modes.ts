/**
 * What a record's Mode Of Dispatch says, whatever its case and spelling: the channels it names
 * (`Speed Post`, `SP`, `RPAD`, `Regd. A.D.`, `Courier`, `E-mail`, `WhatsApp`, `SMS`, and lists such as
 * `Email, Speed Post`, `Email & SP`, `email/whatsapp`), and the parts it could not read. An unknown part
 * is flagged, never guessed: a bare "Post" names no one service (Speed Post or registered?), so it is
 * shown as unknown for a person to settle.
 */
export const dispatchChannels = ['email', 'whatsapp', 'sms', 'speed_post', 'rpad', 'courier'] as const;
export type DispatchChannel = (typeof dispatchChannels)[number];

/** The channels that go by post: a post delivery (channel 'post') with this article type. */
export const postalChannels = ['speed_post', 'rpad', 'courier'] as const satisfies readonly DispatchChannel[];
export type PostalChannel = (typeof postalChannels)[number];

export interface DispatchModes {
  /** The channels named, once each, in the order of dispatchChannels. */
  channels: DispatchChannel[];
  /** The parts no spelling here matches, as written (trimmed). */
  unknown: string[];
}

/**
 * Each part squashed (lower case, letters and digits only, a leading "by"/"via"/"through" off) to the
 * channel it names. Registered post is RPAD with or without the AD card: both are registered letters,
 * which General Clauses Act s.27 presumes served.
 */
const spellings: Record<string, DispatchChannel> = Object.fromEntries(
  (
    [
      ['email', ['email', 'mail', 'emailid', 'emails', 'eml', 'electronicmail']],
      ['whatsapp', ['whatsapp', 'whatsap', 'watsapp', 'watsap', 'whatapp', 'wa', 'wapp', 'whatsappmessage']],
      ['sms', ['sms', 'textmessage', 'text', 'smsmessage']],
      [
        'speed_post',
        ['speedpost', 'sp', 'spost', 'speedpostad', 'spad', 'speedpostwithad', 'indiapostspeedpost', 'speed'],
      ],
      [
        'rpad',
        [
          'rpad',
          'rad',
          'registeredpost',
          'registeredpostad',
          'registeredpostwithad',
          'registeredad',
          'registeredacknowledgementdue',
          'registeredpostacknowledgementdue',
          'regdpost',
          'regdpostad',
          'regdad',
          'regdpostwithad',
          'regpost',
          'regpostad',
          'regad',
          'registered',
          'regd',
          'rpostad',
        ],
      ],
      ['courier', ['courier', 'couriers', 'currier', 'curier', 'courierservice', 'bycourier']],
    ] as [DispatchChannel, string[]][]
  ).flatMap(([channel, names]) => names.map((name) => [name, channel])),
);

/** Where a list of modes splits: commas, slashes, ampersands, plus, semicolons, pipes, line breaks, "and", "or". */
const SEPARATORS = /[,/&+;|\n\r]+|\s+(?:and|or)\s+/i;

const squash = (part: string) =>
  part
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^a-z0-9]+/g, '')
    .replace(/^(by|via|through)(?=.)/, '');

/** The channels and unknown parts of one Mode Of Dispatch text; empty text names nothing. */
export function parseDispatchModes(text: string | null | undefined): DispatchModes {
  const named = new Set<DispatchChannel>();
  const unknown: string[] = [];
  for (const raw of (text ?? '').split(SEPARATORS)) {
    const part = raw.trim();
    if (part === '') continue;
    const key = squash(part);
    if (key === '') continue; // punctuation alone ("-", "..."): nothing named
    const channel = spellings[key];
    if (channel) named.add(channel);
    else if (!unknown.includes(part)) unknown.push(part.slice(0, 80));
  }
  return { channels: dispatchChannels.filter((c) => named.has(c)), unknown };
}

/** The postal service a Mode Of Dispatch names (the first, in the order of postalChannels), if any. */
export function postalChannelOf(text: string | null | undefined): PostalChannel | undefined {
  const { channels } = parseDispatchModes(text);
  return postalChannels.find((c) => channels.includes(c));
}

/** How a person reads each channel. */
export const dispatchChannelNames: Record<DispatchChannel, string> = {
  email: 'E-mail',
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  speed_post: 'Speed Post',
  rpad: 'Registered Post A.D.',
  courier: 'Courier',
};

/** A one-line reading of a value for the Review mapping: "E-mail + Speed Post; unknown: 'Post'". */
export function describeDispatchModes(modes: DispatchModes): string {
  const known = modes.channels.map((c) => dispatchChannelNames[c]).join(' + ');
  const unknown = modes.unknown.map((u) => `'${u}'`).join(', ');
  if (!known && !unknown) return 'nothing named';
  return [known, unknown && `unknown: ${unknown}`].filter(Boolean).join('; ');
}
