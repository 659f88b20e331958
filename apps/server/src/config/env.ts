import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import parseDuration, { type StringValue } from 'ms';
import { z } from 'zod';
import {
  loadEarlierCertificate,
  loadSigningKey,
  SigningSetupError,
  type SigningSettings,
} from '../lib/pdf/signing.ts';
import type { S3Settings } from '../lib/s3-store.ts';
import { parseSendWindow, type SendWindow } from '../lib/send-window.ts';
import type { SignupMode } from '../modules/auth/auth.service.ts';
import type { LimitSettings } from '../modules/limits/limits.service.ts';

/** The one reader of process.env. Everything the server can be told lives here, validated once at start. */
/**
 * A length of time, in milliseconds, in one grammar for every setting (the `ms` package's: 500ms, 30s,
 * 15m, 12h, 30d, 1.5h, '12 hours'). A unit is required: a bare 30 could mean seconds or milliseconds.
 * `min` (in ms) is the least the setting takes; its message says it in the same grammar.
 */
const duration = (name: string, min = 0) => {
  const grammar = `${name} must be a length of time such as 500ms, 30s, 15m, 12h or 30d`;
  return z.string().transform((text, ctx): number => {
    const value = /[a-z]\s*$/i.test(text) ? parseDuration(text as StringValue) : undefined;
    if (value === undefined || !Number.isFinite(value) || value < 0) {
      ctx.issues.push({ code: 'custom', message: grammar, input: text });
      return z.NEVER;
    }
    if (value < min) {
      const least = min === 1 ? 'more than 0' : `at least ${parseDuration(min, { long: true })}`;
      ctx.issues.push({ code: 'custom', message: `${name} must be ${least}`, input: text });
      return z.NEVER;
    }
    return value;
  });
};

/** A whole number from `min` to `max`, with one message naming the variable whatever is wrong. */
const wholeNumber = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
};

/** A provider's limit in messages a second: 0 or less would send nothing, so it is refused. */
/** A provider rate: messages a second, or 'unlimited' (null: no bucket is kept, nothing is counted). */
const messagesPerSecond = (name: string) => {
  const message = `${name} must be a whole number of messages a second from 1 to 100000, such as 20, or unlimited`;
  return z.coerce.string().transform((text, ctx): number | null => {
    if (text.trim().toLowerCase() === 'unlimited') return null;
    const value = Number(text);
    if (/^\s*\d+\s*$/.test(text) && value >= 1 && value <= 100_000) return value;
    ctx.issues.push({ code: 'custom', message, input: text });
    return z.NEVER;
  });
};

/** A BCP 47 locale Intl can format in (en-IN, hi-IN); its canonical spelling. */
function knownLocale(value: string): string | undefined {
  try {
    const [canonical] = Intl.getCanonicalLocales(value);
    return canonical && Intl.DateTimeFormat.supportedLocalesOf([canonical]).length > 0
      ? canonical
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether Intl knows the IANA time zone (Asia/Kolkata, UTC). */
function knownTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Jobs of each kind one process runs side by side unless JOB_CONCURRENCY says otherwise. */
export const defaultJobConcurrency: Record<string, number> = { import: 1, send: 4 };

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  // Object storage (issue 32): unset, files live under DATA_DIR; s3://bucket/prefix, in that bucket.
  STORAGE_URL: z
    .string()
    .regex(
      /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9!_.*'()/-]*)?$/,
      "STORAGE_URL must be unset (files under DATA_DIR) or s3://bucket/prefix, with an S3 bucket name (3-63 lowercase letters, digits, dots, hyphens) and a prefix of letters, digits and !_.*'()/-",
    )
    .optional(),
  S3_ENDPOINT: z.url('S3_ENDPOINT must be a URL such as http://minio:9000').optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,40}$/, 'S3_REGION must be a region name such as ap-south-1')
    .optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], { error: 'S3_FORCE_PATH_STYLE must be true or false' })
    .default('false'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be unset (SQLite) or start with postgres://')
    .optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'DATABASE_SCHEMA must be a lowercase SQL identifier')
    .default('public'),
  DATABASE_POOL_MAX: z.coerce
    .number({ error: 'DATABASE_POOL_MAX must be a whole number from 5 to 200' })
    .int('DATABASE_POOL_MAX must be a whole number from 5 to 200')
    .min(5, 'DATABASE_POOL_MAX must be a whole number from 5 to 200')
    .max(200, 'DATABASE_POOL_MAX must be a whole number from 5 to 200')
    .default(10),
  DATABASE_STATEMENT_TIMEOUT: duration('DATABASE_STATEMENT_TIMEOUT').prefault('5m'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  SESSION_TTL: duration('SESSION_TTL').prefault('12h'),
  REMEMBER_TTL: duration('REMEMBER_TTL').prefault('30d'),
  LOGIN_MAX_ATTEMPTS: wholeNumber('LOGIN_MAX_ATTEMPTS', 1, 10_000).default(10),
  LOGIN_WINDOW: duration('LOGIN_WINDOW').prefault('1m'),
  LOGIN_USERNAME_MAX_PER_HOUR: wholeNumber('LOGIN_USERNAME_MAX_PER_HOUR', 0, 1_000_000).default(100),
  LOGIN_ADDRESS_MAX_PER_HOUR: wholeNumber('LOGIN_ADDRESS_MAX_PER_HOUR', 0, 1_000_000).default(100),
  PASSWORD_HASH_COST: wholeNumber('PASSWORD_HASH_COST', 10, 20).default(15),
  PASSWORD_CHECKS_PER_MINUTE: wholeNumber('PASSWORD_CHECKS_PER_MINUTE', 0, 1_000_000).default(120),
  RESET_MAILS_PER_HOUR: wholeNumber('RESET_MAILS_PER_HOUR', 0, 1_000_000).default(3),
  RATE_LIMIT: wholeNumber('RATE_LIMIT', 0, 10_000_000).default(20_000),
  SIGNUP: z
    .enum(['open', 'first-only', 'closed'], { error: 'SIGNUP must be open, first-only or closed' })
    .default('open'),
  TRUST_PROXY: z.string().optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must start with redis:// or rediss://')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Notice Desk <no-reply@localhost>'),
  APP_URL: z.url('APP_URL must be a URL such as http://localhost:3000').optional(),
  BOUNCE_IMAP_URL: z
    .string()
    .regex(
      /^imaps?:\/\/[^@/]+@[^/]+(\/.*)?$/,
      'BOUNCE_IMAP_URL must look like imaps://user:password@host:993/INBOX',
    )
    .optional(),
  BOUNCE_POLL_INTERVAL: duration('BOUNCE_POLL_INTERVAL', 1).prefault('1m'),
  FALLBACK_CHECK_INTERVAL: duration('FALLBACK_CHECK_INTERVAL', 1000).prefault('5m'),
  BOUNCED_ADDRESSES: z
    .enum(['skip', 'confirm'], { error: 'BOUNCED_ADDRESSES must be skip or confirm' })
    .default('confirm'),
  BOUNCE_RETURN_PATH_DOMAIN: z
    .string()
    .regex(
      /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i,
      'BOUNCE_RETURN_PATH_DOMAIN must be a domain name, such as bounces.example.com',
    )
    .optional(),
  SES_SNS_TOPIC_ARN: z
    .string()
    .regex(/^arn:aws[a-z-]*:sns:/, 'SES_SNS_TOPIC_ARN must be an SNS topic ARN (arn:aws:sns:…)')
    .optional(),
  SES_SNS_CERT_HOSTS: z.string().min(1).default('sns.*.amazonaws.com'),
  SENDGRID_WEBHOOK_PUBLIC_KEY: z
    .string()
    .min(40, 'SENDGRID_WEBHOOK_PUBLIC_KEY must be the base64 ECDSA public key')
    .optional(),
  POSTMARK_WEBHOOK_TOKEN: z
    .string()
    .min(16, 'POSTMARK_WEBHOOK_TOKEN must be at least 16 characters')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().min(1).optional(),
  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  CHROMIUM_WS_ENDPOINT: z
    .string()
    .regex(/^wss?:\/\/\S+$/, 'CHROMIUM_WS_ENDPOINT must be a ws:// or wss:// address')
    .optional(),
  WHATSAPP_API_URL: z.url('WHATSAPP_API_URL must be a URL').default('https://graph.facebook.com/v21.0'),
  WHATSAPP_TOKEN: z.string().min(1).optional(),
  WHATSAPP_PHONE_NUMBER_ID: z.string().regex(/^\d+$/, 'WHATSAPP_PHONE_NUMBER_ID must be digits').optional(),
  WHATSAPP_APP_SECRET: z.string().min(1).optional(),
  WHATSAPP_VERIFY_TOKEN: z.string().min(1).optional(),
  WEBHOOK_MAX_AGE: duration('WEBHOOK_MAX_AGE', 1).prefault('7d'),
  WHATSAPP_BUSINESS_ACCOUNT_ID: z
    .string()
    .regex(/^\d+$/, 'WHATSAPP_BUSINESS_ACCOUNT_ID must be digits')
    .optional(),
  WHATSAPP_MODE: z
    .enum(['template', 'session'], { error: 'WHATSAPP_MODE must be template or session' })
    .default('template'),
  /** Replaced by the approved template set per record kind on the WhatsApp templates screen. */
  WHATSAPP_TEMPLATE_NAME: z.string().optional(),
  WHATSAPP_TEMPLATE_LANGUAGE: z.string().optional(),
  WHATSAPP_RATE: messagesPerSecond('WHATSAPP_RATE').default(20),
  SMTP_RATE: messagesPerSecond('SMTP_RATE').default(10),
  SMS_API_URL: z.url('SMS_API_URL must be a URL').default('https://control.msg91.com'),
  MSG91_AUTH_KEY: z.string().min(1).optional(),
  SMS_SENDER: z
    .string()
    .regex(/^[A-Za-z0-9]{6}$/, 'SMS_SENDER must be the 6-character sender header registered on DLT')
    .optional(),
  SMS_DLT_ENTITY_ID: z
    .string()
    .regex(/^\d{10,25}$/, 'SMS_DLT_ENTITY_ID must be digits (the DLT principal entity id)')
    .optional(),
  SMS_ROUTE: z
    .string()
    .regex(/^\w{1,20}$/, 'SMS_ROUTE must be an MSG91 route such as 4')
    .default('4'),
  SMS_WEBHOOK_TOKEN: z.string().min(16, 'SMS_WEBHOOK_TOKEN must be at least 16 characters').optional(),
  SMS_RATE: messagesPerSecond('SMS_RATE').default(10),
  WHATSAPP_ALONE_REFUSED: z
    .enum(['true', 'false'], { error: 'WHATSAPP_ALONE_REFUSED must be true or false' })
    .default('true'),
  BULK_SEND_CONFIRM_THRESHOLD: z.coerce
    .number({ error: 'BULK_SEND_CONFIRM_THRESHOLD must be a whole number of records, 0 or more' })
    .int('BULK_SEND_CONFIRM_THRESHOLD must be a whole number of records, 0 or more')
    .min(0, 'BULK_SEND_CONFIRM_THRESHOLD must be a whole number of records, 0 or more')
    .default(50),
  RESERVE_WARN_DAYS: z.coerce
    .number({ error: 'RESERVE_WARN_DAYS must be a whole number of days, 0 (off) to 3650' })
    .int('RESERVE_WARN_DAYS must be a whole number of days, 0 (off) to 3650')
    .min(0, 'RESERVE_WARN_DAYS must be a whole number of days, 0 (off) to 3650')
    .max(3650, 'RESERVE_WARN_DAYS must be a whole number of days, 0 (off) to 3650')
    .default(30),
  // Deemed service after dispatch when nothing came back (docs/sending.md: 30 days, and its ground).
  DEEMED_SERVICE_DAYS: z.coerce
    .number({ error: 'DEEMED_SERVICE_DAYS must be a whole number of days, 0 (never deemed) to 365' })
    .int('DEEMED_SERVICE_DAYS must be a whole number of days, 0 (never deemed) to 365')
    .min(0, 'DEEMED_SERVICE_DAYS must be a whole number of days, 0 (never deemed) to 365')
    .max(365, 'DEEMED_SERVICE_DAYS must be a whole number of days, 0 (never deemed) to 365')
    .default(30),
  // Deemed service of a letter booked by post that nothing came back for (General Clauses Act s.27; the
  // 30 days of CPC Order V rule 9(5): docs/sending.md, "Post").
  POST_DEEMED_SERVICE_DAYS: z.coerce
    .number({ error: 'POST_DEEMED_SERVICE_DAYS must be a whole number of days, 0 (never deemed) to 365' })
    .int('POST_DEEMED_SERVICE_DAYS must be a whole number of days, 0 (never deemed) to 365')
    .min(0, 'POST_DEEMED_SERVICE_DAYS must be a whole number of days, 0 (never deemed) to 365')
    .max(365, 'POST_DEEMED_SERVICE_DAYS must be a whole number of days, 0 (never deemed) to 365')
    .default(30),
  // Post (docs/sending.md, "Post"): the window envelope the print file's address block is placed for,
  // the sender printed on carriers and the booking list, the weight the booking list gives.
  POST_ENVELOPE: z.enum(['DL', 'C5'], { error: 'POST_ENVELOPE must be DL or C5' }).default('DL'),
  POST_SENDER: z.string().max(300, 'POST_SENDER must be at most 300 characters').default(''),
  POST_WEIGHT_GRAMS: z.coerce
    .number({ error: 'POST_WEIGHT_GRAMS must be a whole number of grams, 1 to 2000' })
    .int('POST_WEIGHT_GRAMS must be a whole number of grams, 1 to 2000')
    .min(1, 'POST_WEIGHT_GRAMS must be a whole number of grams, 1 to 2000')
    .max(2000, 'POST_WEIGHT_GRAMS must be a whole number of grams, 1 to 2000')
    .default(20),
  DEFAULT_COUNTRY_CODE: z
    .string()
    .regex(/^\d{1,3}$/, 'DEFAULT_COUNTRY_CODE must be 1 to 3 digits, such as 91')
    .default('91'),
  // Renewed every third of it: shorter than 5 s, a busy event loop or a slow statement loses the job.
  JOB_LEASE: duration('JOB_LEASE', 5000).prefault('30s'),
  JOB_RETRY_BACKOFF: duration('JOB_RETRY_BACKOFF', 1).prefault('2s'),
  /** Finished and failed jobs (and an import's row report with them) are pruned after this. */
  JOB_RETENTION: duration('JOB_RETENTION', 1).prefault('30d'),
  RUN_JOBS: z.enum(['true', 'false'], { error: 'RUN_JOBS must be true or false' }).default('true'),
  /** Jobs of each kind a process runs side by side: `import:1,send:4`; kinds left out keep theirs. */
  JOB_CONCURRENCY: z
    .string()
    .optional()
    .transform((text, ctx): Record<string, number> => {
      const out: Record<string, number> = { ...defaultJobConcurrency };
      for (const part of (text ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const match = /^([a-z][a-z0-9_-]*)\s*:\s*(\d{1,3})$/i.exec(part);
        const kind = match?.[1]?.toLowerCase();
        const count = Number(match?.[2]);
        if (!kind || !(kind in defaultJobConcurrency) || count < 1 || count > 64) {
          ctx.issues.push({
            code: 'custom',
            message: `JOB_CONCURRENCY must list kind:count pairs such as import:1,send:4 (kinds ${Object.keys(defaultJobConcurrency).join(', ')}; counts 1 to 64); "${part}" is not one`,
            input: text,
          });
          return z.NEVER;
        }
        out[kind] = count;
      }
      return out;
    }),
  MIGRATE_ON_START: z
    .enum(['true', 'false'], { error: 'MIGRATE_ON_START must be true or false' })
    .default('true'),
  /** A port of its own for /metrics, /api/health and /api/ready (workers listen only there). */
  METRICS_PORT: z.coerce
    .number({ error: 'METRICS_PORT must be a port number from 1 to 65535' })
    .int('METRICS_PORT must be a port number from 1 to 65535')
    .min(1, 'METRICS_PORT must be a port number from 1 to 65535')
    .max(65535, 'METRICS_PORT must be a port number from 1 to 65535')
    .optional(),
  /** Opens /metrics on the public port to a request bearing this token. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  UPLOAD_RETENTION: duration('UPLOAD_RETENTION', 1).prefault('7d'),
  OUTBOX_RETENTION: duration('OUTBOX_RETENTION', 1).prefault('30d'),
  UPLOAD_MAX_MB: z.coerce.number().positive().max(1024).default(50),
  IMPORT_MAX_ROWS: z.coerce.number().int().positive().default(200_000),
  IMPORT_MAX_UNPACKED_MB: z.coerce.number().positive().default(1024),
  IMPORT_MAX_SHARED_STRINGS_MB: z.coerce
    .number({ error: 'IMPORT_MAX_SHARED_STRINGS_MB must be a number of MB from 1 to 4096' })
    .min(1, 'IMPORT_MAX_SHARED_STRINGS_MB must be a number of MB from 1 to 4096')
    .max(4096, 'IMPORT_MAX_SHARED_STRINGS_MB must be a number of MB from 1 to 4096')
    .default(256),
  SEND_HOURS: z.string().optional(),
  /** Unset: TIME_ZONE. Kept for a sender whose quiet hours follow another zone than its documents. */
  SEND_HOURS_TIMEZONE: z.string().min(1).optional(),
  LOCALE: z
    .string()
    .transform((value, ctx) => {
      const locale = knownLocale(value);
      if (locale) return locale;
      ctx.addIssue({
        code: 'custom',
        message: `LOCALE "${value}" is not a locale this server knows; use a BCP 47 tag such as en-IN, hi-IN or en-GB`,
      });
      return z.NEVER;
    })
    .default('en-IN'),
  NOTICE_SIGNING_P12: z.string().min(1).optional(),
  NOTICE_SIGNING_PASSWORD: z.string().optional(),
  NOTICE_SIGNING_REASON: z.string().min(1).default('Legal notice'),
  NOTICE_SIGNING_LOCATION: z.string().default(''),
  NOTICE_SIGNING_STAMP: z
    .enum(['on', 'off'], { error: 'NOTICE_SIGNING_STAMP must be on or off' })
    .default('off'),
  /** Comma-separated PEM files (or their base64): earlier signing certificates, each with its chain. */
  NOTICE_SIGNING_EARLIER_CERTS: z.string().optional(),
  TSA_URL: z.url('TSA_URL must be a URL such as http://timestamp.example.com/tsa').optional(),
  TIME_ZONE: z
    .string()
    .refine(knownTimeZone, {
      error: (issue) =>
        `TIME_ZONE "${String(issue.input)}" is not a time zone this server knows; use an IANA name such as Asia/Kolkata`,
    })
    .default('Asia/Kolkata'),
  // The notice page (issue 29): who it says sent the notice, and its payment and call actions.
  FIRM_NAME: z.string().max(200, 'FIRM_NAME must be at most 200 characters').default('Notice Desk'),
  FIRM_ADDRESS: z.string().max(500, 'FIRM_ADDRESS must be at most 500 characters').default(''),
  UPI_PAYEE_VPA: z
    .string()
    .regex(/^[\w.-]{2,256}@[A-Za-z][\w.-]{1,64}$/, 'UPI_PAYEE_VPA must be a UPI address such as firm@okaxis')
    .optional(),
  UPI_PAYEE_NAME: z.string().max(100, 'UPI_PAYEE_NAME must be at most 100 characters').optional(),
  NOTICE_PAGE_CODE_PER_MINUTE: wholeNumber('NOTICE_PAGE_CODE_PER_MINUTE', 0, 1_000_000).default(60),
  NOTICE_PAGE_ADDRESS_PER_MINUTE: wholeNumber('NOTICE_PAGE_ADDRESS_PER_MINUTE', 0, 10_000_000).default(300),
  VERIFY_PER_MINUTE: wholeNumber('VERIFY_PER_MINUTE', 0, 10_000_000).default(30),
  CALL_US_NUMBER: z
    .string()
    .regex(/^\+?[\d\s-]{6,20}$/, 'CALL_US_NUMBER must be a telephone number such as +91 22 4000 1234')
    .optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** STORAGE_URL and S3_*: the bucket every file is kept in; undefined keeps them under DATA_DIR. */
  storage: S3Settings | undefined;
  databaseUrl: string | undefined;
  databaseSchema: string;
  /** PostgreSQL: connections this process may hold at once. */
  databasePoolMax: number;
  /** PostgreSQL: a statement running longer is cancelled (its transaction rolls back). */
  databaseStatementTimeoutMs: number;
  jwtSecret: string | undefined;
  sessionTtlSeconds: number;
  rememberTtlSeconds: number;
  /** Account limits (login, password work, reset mails); see modules/limits/limits.service.ts. */
  limits: LimitSettings;
  /** PASSWORD_HASH_COST: scrypt's N as a power of two for new password hashes (lib/password.ts). */
  passwordHashCost: number;
  /** Requests per minute one client address may make to one API process; 0 for no limit. */
  rateLimitPerMinute: number;
  /** Who may sign up: anyone, only the first account, or nobody (an ADMIN creates accounts). */
  signup: SignupMode;
  /** Fastify's trustProxy: false, the number of proxies in front, or the proxies' addresses. */
  trustProxy: false | number | string[];
  /** Limits are counted in Redis (shared by every process) when set, else in the database. */
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Bounces: the IMAP mailbox polled for them, and what a send does with addresses that bounced. */
  bounces: {
    imapUrl: string | undefined;
    pollIntervalMs: number;
    /** confirm: a send naming one answers 409 until confirmBounced; skip: it is left out. */
    bouncedAddresses: 'skip' | 'confirm';
    /** Each e-mail's envelope sender is bounce+<delivery id>@ this (VERP), so its bounce names it; unset: MAIL_FROM. */
    returnPathDomain: string | undefined;
  };
  /** POST /api/webhooks/email: each provider is off until its setting is. */
  emailWebhooks: {
    sesTopicArn: string | undefined;
    /** Host patterns (`*` one label) SNS signing certificates may be fetched from, over https. */
    sesCertHosts: string[];
    sendgridPublicKey: string | undefined;
    postmarkToken: string | undefined;
  };
  appUrl: string;
  logLevel: string;
  webDist: string;
  /** Whether this process runs the job worker beside the API (`npm run worker` runs one alone). */
  runJobs: boolean;
  /** Jobs of each kind this process runs side by side (JOB_CONCURRENCY). */
  jobConcurrency: Record<string, number>;
  /** Whether a start migrates the database (true) or refuses one that is behind (false). */
  migrateOnStart: boolean;
  /** Where /metrics, /api/health and /api/ready are served apart from the public port. */
  metricsPort: number | undefined;
  /** With it, /metrics on the public port answers a request bearing it. */
  metricsToken: string | undefined;
  /** An upload whose import did not succeed (or never ran) is deleted after this; a successful import's at once. */
  uploadRetentionSeconds: number;
  /** Outbox files (written when no SMTP or WhatsApp is configured) are deleted after this. */
  outboxRetentionSeconds: number;
  chromiumPath: string;
  /**
   * CHROMIUM_WS_ENDPOINT: a Playwright browser server (playwright-core's launchServer, the same version)
   * to print in, each process in contexts of its own, instead of a Chromium launched per process.
   */
  chromiumWsEndpoint: string | undefined;
  whatsapp: {
    apiUrl: string;
    token: string | undefined;
    phoneNumberId: string | undefined;
    appSecret: string | undefined;
    verifyToken: string | undefined;
    /** The WhatsApp Business Account whose message templates (and their status) are read. */
    businessAccountId: string | undefined;
    /** template: approved templates only (business-initiated); session: free-form documents (24-hour window). */
    mode: 'template' | 'session';
  };
  /** Messages a second each provider is sent, all worker processes together. */
  /** Messages a second per channel; null when unlimited. */
  rates: { whatsapp: number | null; email: number | null; sms: number | null };
  /**
   * SMS by MSG91 (issue 31): configured when MSG91_AUTH_KEY, SMS_SENDER and SMS_DLT_ENTITY_ID are set,
   * else SMS go to the outbox. webhookToken authenticates MSG91's delivery reports (in their URL).
   */
  sms: {
    apiUrl: string;
    authKey: string | undefined;
    sender: string | undefined;
    entityId: string | undefined;
    route: string;
    webhookToken: string | undefined;
  };
  /** WHATSAPP_ALONE_REFUSED: a record served by WhatsApp goes by e-mail too when it has an address. */
  whatsappAloneRefused: boolean;
  /** FALLBACK_CHECK_INTERVAL: how often each worker looks for fallback steps that are due. */
  fallbackCheckMs: number;
  /** A provider's status webhook event older than this is refused: skipped, counted and logged. */
  webhookMaxAgeSeconds: number;
  defaultCountryCode: string;
  /** A send of more records than this asks first, with the counts per channel (the web's confirmation). */
  bulkSendConfirmThreshold: number;
  /** A send to a borrower another campaign served on the channel within this many days asks first (0: never). */
  reserveWarnDays: number;
  /** A record is deemed served this many days after its first dispatch when nothing came back (0: never). */
  deemedServiceDays: number;
  /** …and this many days after a letter's booking by post when it was not returned (0: never by post). */
  postDeemedServiceDays: number;
  /** Post: the print file's envelope, the sender, the weight a letter is booked at. */
  post: { envelope: 'DL' | 'C5'; sender: string; weightGrams: number };
  /** How long a worker may go silent before another takes its job over (at least 5 s). */
  jobLeaseMs: number;
  /** Finished and failed jobs are pruned after this. */
  jobRetentionMs: number;
  /** The wait before a failed job's first retry; it doubles with each further one. */
  jobRetryBackoffMs: number;
  uploadMaxBytes: number;
  importMaxRows: number;
  importMaxUnpackedBytes: number;
  /** The most a workbook's shared-string table may take; it is held whole while the sheet is read. */
  importMaxSharedStringsBytes: number;
  /** Quiet hours: notices go out only inside this daily window; undefined sends at any hour. */
  sendWindow: SendWindow | undefined;
  /** How dates read in documents, and Excel's locale-dependent date formats on import (en-IN). */
  locale: string;
  /** The zone documents, reports and audit times are shown in (Asia/Kolkata). */
  timeZone: string;
  /** The notice page: who sent the notice, the UPI payee (no VPA: no payment action), the number to call. */
  noticePage: {
    firmName: string;
    firmAddress: string;
    upiPayeeVpa: string | undefined;
    upiPayeeName: string | undefined;
    callUsNumber: string | undefined;
    /** TIME_ZONE: the page's times are the notice's, not the visitor's clock. */
    timeZone: string;
    /** Public page requests per code and per address, per minute (0: no limit). */
    perCodePerMinute: number;
    perAddressPerMinute: number;
  };
  /** NOTICE_SIGNING_*: every notice PDF is signed with this key when set. */
  signing: SigningSettings | undefined;
  /**
   * NOTICE_SIGNING_EARLIER_CERTS: the certificates of earlier signing keys, each leaf first with its
   * chain (DER). A notice signed by one still verifies as ours after the DSC is renewed.
   */
  signingEarlierChains: Buffer[][];
  /** Requests to the public verification routes (/v/<code>) per address, per minute (0: no limit). */
  verifyPerMinute: number;
}

export class ConfigError extends Error {}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: unset or false (the connection's address is the client's), a hop count (1 for one load
 * balancer in front), or a comma-separated list of the proxies' addresses or CIDR ranges (or loopback,
 * linklocal, uniquelocal). `true` would believe any client's X-Forwarded-For, so it is refused.
 */
function trustProxy(value: string | undefined): false | number | string[] {
  if (value === undefined || value === 'false' || value === '0') return false;
  const wrong = (why: string) =>
    new ConfigError(
      `Invalid configuration:\n  TRUST_PROXY: ${why}. Give the number of proxies in front of the server (such as 1) or their addresses (such as 10.0.0.0/8,127.0.0.1).`,
    );
  if (value === 'true') throw wrong("true would take any client's X-Forwarded-For as its address");
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw wrong(`${value} proxies is more than 10`);
    return hops;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const bits = isIP(address) === 4 ? 32 : 128;
    const valid =
      PROXY_NAMES.includes(entry) ||
      (isIP(address) !== 0 &&
        extra === undefined &&
        (prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= bits)));
    if (!valid) throw wrong(`"${entry}" is not an address, a CIDR range or one of ${PROXY_NAMES.join(', ')}`);
  }
  return entries;
}

/** A duration setting (milliseconds) in whole seconds. */
const seconds = (ms: number) => Math.round(ms / 1000);

const defaultWebDist = path.resolve(import.meta.dirname, '../../../web/dist');

/** Reads and checks the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "unset", as shells and .env files usually intend.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  for (const name of ['WHATSAPP_TEMPLATE_NAME', 'WHATSAPP_TEMPLATE_LANGUAGE'] as const)
    if (e[name] !== undefined)
      throw new ConfigError(
        `Invalid configuration:\n  ${name}: no longer read. An ADMIN sets each record kind's approved template (name, language, body fields) on the WhatsApp templates screen; unset ${name}.`,
      );
  if (
    e.WHATSAPP_TOKEN &&
    e.WHATSAPP_PHONE_NUMBER_ID &&
    e.WHATSAPP_MODE === 'template' &&
    !e.WHATSAPP_BUSINESS_ACCOUNT_ID
  )
    throw new ConfigError(
      "Invalid configuration:\n  WHATSAPP_BUSINESS_ACCOUNT_ID: required with the Cloud API in WHATSAPP_MODE=template (the default): the approved templates' status is read from it. Set it, or WHATSAPP_MODE=session for free-form messages (24-hour window only).",
    );
  if (e.MSG91_AUTH_KEY && (!e.SMS_SENDER || !e.SMS_DLT_ENTITY_ID))
    throw new ConfigError(
      `Invalid configuration:\n  ${!e.SMS_SENDER ? 'SMS_SENDER' : 'SMS_DLT_ENTITY_ID'}: required with MSG91_AUTH_KEY: every SMS in India goes from a DLT-registered header of a registered entity. Set it, or unset MSG91_AUTH_KEY to write SMS to the outbox.`,
    );
  let sendWindow: SendWindow | undefined;
  if (e.SEND_HOURS) {
    const window = parseSendWindow(e.SEND_HOURS, e.SEND_HOURS_TIMEZONE ?? e.TIME_ZONE);
    if (typeof window === 'string') {
      const zone = e.SEND_HOURS_TIMEZONE ? 'SEND_HOURS_TIMEZONE' : 'TIME_ZONE';
      throw new ConfigError(`Invalid configuration:\n  SEND_HOURS (with ${zone}): ${window}`);
    }
    sendWindow = window;
  }
  return {
    signing: signingSettings(e),
    signingEarlierChains: earlierSigningChains(e.NOTICE_SIGNING_EARLIER_CERTS),
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    storage: storageSettings(e),
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    databasePoolMax: e.DATABASE_POOL_MAX,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT,
    jwtSecret: e.JWT_SECRET,
    sessionTtlSeconds: seconds(e.SESSION_TTL),
    rememberTtlSeconds: seconds(e.REMEMBER_TTL),
    passwordHashCost: e.PASSWORD_HASH_COST,
    limits: {
      loginMaxAttempts: e.LOGIN_MAX_ATTEMPTS,
      loginWindowSeconds: seconds(e.LOGIN_WINDOW),
      loginUsernameMaxPerHour: e.LOGIN_USERNAME_MAX_PER_HOUR,
      loginAddressMaxPerHour: e.LOGIN_ADDRESS_MAX_PER_HOUR,
      passwordChecksPerMinute: e.PASSWORD_CHECKS_PER_MINUTE,
      resetMailsPerHour: e.RESET_MAILS_PER_HOUR,
    },
    rateLimitPerMinute: e.RATE_LIMIT,
    signup: e.SIGNUP,
    trustProxy: trustProxy(e.TRUST_PROXY),
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    bounces: {
      imapUrl: e.BOUNCE_IMAP_URL,
      pollIntervalMs: e.BOUNCE_POLL_INTERVAL,
      bouncedAddresses: e.BOUNCED_ADDRESSES,
      returnPathDomain: e.BOUNCE_RETURN_PATH_DOMAIN?.toLowerCase(),
    },
    emailWebhooks: {
      sesTopicArn: e.SES_SNS_TOPIC_ARN,
      sesCertHosts: e.SES_SNS_CERT_HOSTS.split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
      sendgridPublicKey: e.SENDGRID_WEBHOOK_PUBLIC_KEY,
      postmarkToken: e.POSTMARK_WEBHOOK_TOKEN,
    },
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : defaultWebDist,
    runJobs: e.RUN_JOBS === 'true',
    jobConcurrency: e.JOB_CONCURRENCY,
    migrateOnStart: e.MIGRATE_ON_START === 'true',
    metricsPort: e.METRICS_PORT,
    metricsToken: e.METRICS_TOKEN,
    uploadRetentionSeconds: seconds(e.UPLOAD_RETENTION),
    outboxRetentionSeconds: seconds(e.OUTBOX_RETENTION),
    jobLeaseMs: e.JOB_LEASE,
    jobRetentionMs: e.JOB_RETENTION,
    jobRetryBackoffMs: e.JOB_RETRY_BACKOFF,
    chromiumPath: e.CHROMIUM_PATH,
    chromiumWsEndpoint: e.CHROMIUM_WS_ENDPOINT,
    whatsapp: {
      apiUrl: e.WHATSAPP_API_URL,
      token: e.WHATSAPP_TOKEN,
      phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID,
      appSecret: e.WHATSAPP_APP_SECRET,
      verifyToken: e.WHATSAPP_VERIFY_TOKEN,
      businessAccountId: e.WHATSAPP_BUSINESS_ACCOUNT_ID,
      mode: e.WHATSAPP_MODE,
    },
    rates: { whatsapp: e.WHATSAPP_RATE, email: e.SMTP_RATE, sms: e.SMS_RATE },
    sms: {
      apiUrl: e.SMS_API_URL,
      authKey: e.MSG91_AUTH_KEY,
      sender: e.SMS_SENDER,
      entityId: e.SMS_DLT_ENTITY_ID,
      route: e.SMS_ROUTE,
      webhookToken: e.SMS_WEBHOOK_TOKEN,
    },
    whatsappAloneRefused: e.WHATSAPP_ALONE_REFUSED === 'true',
    fallbackCheckMs: e.FALLBACK_CHECK_INTERVAL,
    webhookMaxAgeSeconds: seconds(e.WEBHOOK_MAX_AGE),
    defaultCountryCode: e.DEFAULT_COUNTRY_CODE,
    bulkSendConfirmThreshold: e.BULK_SEND_CONFIRM_THRESHOLD,
    reserveWarnDays: e.RESERVE_WARN_DAYS,
    deemedServiceDays: e.DEEMED_SERVICE_DAYS,
    postDeemedServiceDays: e.POST_DEEMED_SERVICE_DAYS,
    post: {
      envelope: e.POST_ENVELOPE,
      sender: e.POST_SENDER,
      weightGrams: e.POST_WEIGHT_GRAMS,
    },
    uploadMaxBytes: Math.round(e.UPLOAD_MAX_MB * 1024 * 1024),
    importMaxRows: e.IMPORT_MAX_ROWS,
    importMaxUnpackedBytes: Math.round(e.IMPORT_MAX_UNPACKED_MB * 1024 * 1024),
    importMaxSharedStringsBytes: Math.round(e.IMPORT_MAX_SHARED_STRINGS_MB * 1024 * 1024),
    sendWindow,
    locale: e.LOCALE,
    timeZone: e.TIME_ZONE,
    noticePage: {
      firmName: e.FIRM_NAME,
      firmAddress: e.FIRM_ADDRESS,
      upiPayeeVpa: e.UPI_PAYEE_VPA,
      upiPayeeName: e.UPI_PAYEE_NAME,
      callUsNumber: e.CALL_US_NUMBER,
      timeZone: e.TIME_ZONE,
      perCodePerMinute: e.NOTICE_PAGE_CODE_PER_MINUTE,
      perAddressPerMinute: e.NOTICE_PAGE_ADDRESS_PER_MINUTE,
    },
    verifyPerMinute: e.VERIFY_PER_MINUTE,
  };
}

/**
 * NOTICE_SIGNING_P12 (a path to the file, or its base64) opened with NOTICE_SIGNING_PASSWORD and checked
 * now, so a wrong password or an expired certificate stops the start rather than the first send.
 */
function signingSettings(e: z.infer<typeof envSchema>): SigningSettings | undefined {
  if (!e.NOTICE_SIGNING_P12) {
    if (e.TSA_URL)
      throw new ConfigError(
        'Invalid configuration:\n  TSA_URL: timestamps sign notices; set NOTICE_SIGNING_P12 too, or unset TSA_URL.',
      );
    return undefined;
  }
  const wrong = (setting: string, why: string) =>
    new ConfigError(`Invalid configuration:\n  ${setting}: ${why}`);
  const p12 = fileOrBase64(e.NOTICE_SIGNING_P12)?.bytes;
  if (!p12) throw wrong('NOTICE_SIGNING_P12', 'no file at that path, and not a base64 PKCS#12 file either');
  try {
    return {
      key: loadSigningKey(p12, e.NOTICE_SIGNING_PASSWORD ?? ''),
      reason: e.NOTICE_SIGNING_REASON,
      location: e.NOTICE_SIGNING_LOCATION,
      stamp: e.NOTICE_SIGNING_STAMP === 'on',
      tsaUrl: e.TSA_URL,
      timeZone: e.TIME_ZONE,
    };
  } catch (err) {
    if (err instanceof SigningSetupError) throw wrong(err.setting, err.message);
    throw err;
  }
}

/**
 * NOTICE_SIGNING_EARLIER_CERTS: each item a path to a PEM file (or its base64, as NOTICE_SIGNING_P12
 * takes), the certificate followed by its chain, checked now: a file that is not there, is not a
 * certificate or whose chain does not verify stops the start, naming the file.
 */
function earlierSigningChains(value: string | undefined): Buffer[][] {
  const items = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items.map((item, i) => {
    try {
      const file = fileOrBase64(item);
      if (!file)
        throw new ConfigError(
          `Invalid configuration:\n  NOTICE_SIGNING_EARLIER_CERTS: ${item}: no file at that path, and not a base64 certificate either`,
        );
      return loadEarlierCertificate(file.bytes, file.onDisk ? item : `item ${i + 1} (base64)`);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      const why =
        err instanceof SigningSetupError
          ? err.message
          : `${item}: cannot be read (${(err as Error).message})`;
      throw new ConfigError(`Invalid configuration:\n  NOTICE_SIGNING_EARLIER_CERTS: ${why}`);
    }
  });
}

/**
 * A file setting's bytes: the file at that path, else the value itself as base64 (a secret store's
 * value); undefined when it is neither.
 */
function fileOrBase64(value: string): { bytes: Buffer; onDisk: boolean } | undefined {
  if (existsSync(value)) return { bytes: readFileSync(value), onDisk: true };
  if (/^[A-Za-z0-9+/=\s]+$/.test(value) && value.length >= 64)
    return { bytes: Buffer.from(value, 'base64'), onDisk: false };
  return undefined;
}

/**
 * STORAGE_URL=s3://bucket/prefix and the S3_* settings. Processes sharing a store share no folder, so the
 * session secret cannot be the one generated into DATA_DIR: JWT_SECRET is required with it.
 */
function storageSettings(e: z.infer<typeof envSchema>): S3Settings | undefined {
  const unused = (['S3_ENDPOINT', 'S3_REGION'] as const).filter((name) => e[name] !== undefined);
  if (!e.STORAGE_URL) {
    if (unused.length > 0)
      throw new ConfigError(
        `Invalid configuration:\n  ${unused.join(', ')}: read only with STORAGE_URL=s3://bucket/prefix; set STORAGE_URL or unset ${unused.join(' and ')}.`,
      );
    return undefined;
  }
  if (!e.JWT_SECRET)
    throw new ConfigError(
      'Invalid configuration:\n  JWT_SECRET: required with STORAGE_URL. Processes that share a store share no folder to keep a generated secret in, so each would sign sessions with its own; set one JWT_SECRET (32 characters or more) on every process.',
    );
  const [bucket = '', ...rest] = e.STORAGE_URL.slice('s3://'.length).split('/');
  const prefix = rest.filter(Boolean).join('/');
  if (
    rest
      .join('/')
      .split('/')
      .some((part) => part === '.' || part === '..')
  )
    throw new ConfigError('Invalid configuration:\n  STORAGE_URL: the prefix may not hold . or .. folders.');
  return {
    bucket,
    prefix,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
  };
}

/**
 * Why an API process must not start as configured, or undefined. RATE_LIMIT counts per process
 * without REDIS_URL; MIGRATE_ON_START=false is the several-process shape (docs/operations.md), where
 * a per-process count would let each address through once per process: refused, saying why.
 */
export function requestLimitProblem(
  config: Pick<Config, 'migrateOnStart' | 'redisUrl' | 'rateLimitPerMinute'>,
): string | undefined {
  if (config.migrateOnStart || config.redisUrl || config.rateLimitPerMinute === 0) return undefined;
  return (
    'Invalid configuration:\n  RATE_LIMIT: with several processes (MIGRATE_ON_START=false) the request limit must be ' +
    'shared: set REDIS_URL, or set RATE_LIMIT=0 and limit requests at the load balancer.'
  );
}

/** loadConfig for an entry point: a bad value stops the process with the message naming the variable. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}
