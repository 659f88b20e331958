import { z } from 'zod';
import type { DeliveryStatus } from '../../db/schema.ts';

/** The Cloud API statuses that say what became of a message, and the delivery status each one means. */
export const deliveryStatusOf = new Map<string, DeliveryStatus>([
  ['sent', 'sent'],
  ['delivered', 'delivered'],
  ['read', 'read'],
  ['failed', 'failed'],
]);

/**
 * Statuses the Cloud API documents that say nothing about whether a notice was served (a message the
 * customer deleted, a catalog warning, a voice message played): accepted and ignored. Any other value
 * is refused, since an unknown word cannot be told from a probe.
 */
const ignoredStatuses = ['deleted', 'warning', 'played'];
const knownStatuses = [...deliveryStatusOf.keys(), ...ignoredStatuses];

/** 9999-12-31T23:59:59Z: the last second a timestamp can name and still be a date. */
const LAST_SECOND = 253_402_300_799;

const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/** Unix seconds as the Cloud API sends them ("1700000000"); a JSON number is taken too. */
const unixSeconds = z.unknown().transform((value, ctx) => {
  const seconds =
    typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,12}$/.test(value) ? +value : NaN;
  if (Number.isSafeInteger(seconds) && seconds >= 0 && seconds <= LAST_SECOND) return seconds;
  ctx.issues.push({
    code: 'custom',
    input: value,
    message:
      value === undefined
        ? 'is missing: Unix seconds, such as "1700000000"'
        : `${shown(value)} is not Unix seconds between 1970 and 9999, such as "1700000000"`,
  });
  return z.NEVER;
});

/** The message for a value of the wrong type, or for none where one is needed. */
const mustBe =
  (expected: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? `is missing: expected ${expected}` : `must be ${expected}`;

const text = (max: number) =>
  z.string({ error: mustBe('text') }).max(max, `must be at most ${max} characters`);

const providerError = z.object(
  {
    code: z
      .number({ error: mustBe('a number') })
      .int('must be a whole number')
      .optional(),
    title: text(1000).optional(),
    message: text(1000).optional(),
    error_data: z.object({ details: text(2000).optional() }, { error: mustBe('an object') }).optional(),
  },
  { error: mustBe('an error object') },
);

const statusUpdate = z.object(
  {
    id: text(256).min(1, 'must not be empty'),
    status: z.custom<string>((value) => typeof value === 'string' && knownStatuses.includes(value), {
      error: (issue) =>
        `${issue.input === undefined ? 'is missing' : `${shown(issue.input)} is not a WhatsApp status`}: expected ${knownStatuses.join(', ')}`,
    }),
    timestamp: unixSeconds,
    recipient_id: text(256).optional(),
    errors: z
      .array(providerError, { error: mustBe('a list of error objects') })
      .max(50, 'must hold at most 50 errors')
      .optional(),
  },
  { error: mustBe('a status object') },
);

/**
 * A Cloud API webhook body, as far as status updates go: `entry[].changes[].value.statuses[]`. Other
 * fields Meta sends (incoming messages, pricing, other subscriptions' values) pass unread.
 */
const webhookBody = z.object(
  {
    object: text(100).optional(),
    entry: z.array(
      z.object(
        {
          changes: z.array(
            z.object(
              {
                value: z.object(
                  { statuses: z.array(statusUpdate, { error: mustBe('a list') }).optional() },
                  { error: mustBe('an object') },
                ),
              },
              { error: mustBe('an object') },
            ),
            { error: mustBe('a list') },
          ),
        },
        { error: mustBe('an object') },
      ),
      { error: mustBe('a list') },
    ),
  },
  { error: mustBe('a JSON object') },
);

/** One status update: `status` is one of `deliveryStatusOf` or of those ignored, `timestamp` Unix seconds. */
export type StatusUpdate = z.infer<typeof statusUpdate>;

/** 'entry[0].changes[1].value': where in the body an issue is. */
const where = (path: PropertyKey[]) =>
  path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');

/**
 * Reads a signed webhook body. Answers its status updates in order, or the first few problems, each
 * named with its place in the body: nothing of a body with a problem is applied.
 */
export function readStatusUpdates(raw: Buffer): StatusUpdate[] | string {
  if (raw.length === 0) return "The webhook body is empty: expected the Cloud API's JSON object.";
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return 'The webhook body is not valid JSON.';
  }
  const parsed = webhookBody.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 3)
      .map((issue) => (issue.path.length > 0 ? `${where(issue.path)} ${issue.message}` : issue.message));
    return `The webhook body is not valid: ${problems.join('; ')}.`;
  }
  return parsed.data.entry.flatMap((entry) => entry.changes.flatMap((change) => change.value.statuses ?? []));
}
