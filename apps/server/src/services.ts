import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/env.ts';
import { listenForJobs, openDatabase, type Database, type DatabaseKind } from './db/database.ts';
import { prepareSchema } from './db/migrate.ts';
import { registerJob } from './jobs/job-definition.ts';
import { JobRunner } from './jobs/job-runner.ts';
import { queueStats } from './jobs/jobs.repository.ts';
import { jobOutcomes, jobSeconds, metricsText, queueGauges } from './lib/metrics.ts';
import { readiness, type Readiness } from './modules/health/health.service.ts';
import { JobsService } from './modules/jobs/jobs.service.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { resolveSecret } from './lib/secret.ts';
import { PasswordHasher } from './lib/password.ts';
import { PdfLinks } from './lib/pdf/links.ts';
import { PdfRenderer } from './lib/pdf/renderer.ts';
import { NoticeSigner } from './lib/pdf/signing.ts';
import { openFileStore } from './lib/open-store.ts';
import type { FileStore } from './lib/storage.ts';
import { cloudApiSender, cloudApiTemplates, outboxSender } from './lib/whatsapp.ts';
import { NoticePageTokens, SessionTokens } from './lib/tokens.ts';
import { ArchiveService } from './modules/archive/archive.service.ts';
import { AuditService } from './modules/audit/audit.service.ts';
import { AuthService, fillUsernameSkeletons } from './modules/auth/auth.service.ts';
import { CampaignsService } from './modules/campaigns/campaigns.service.ts';
import { ServiceDatesService } from './modules/service-dates/service-dates.service.ts';
import { DashboardService } from './modules/dashboard/dashboard.service.ts';
import { FunnelService } from './modules/funnel/funnel.service.ts';
import { EvidenceService } from './modules/evidence/evidence.service.ts';
import { VerifyService } from './modules/verify/verify.service.ts';
import { PRODUCT } from './lib/product.ts';
import { ExportsService } from './modules/exports/exports.service.ts';
import { IMPORT_JOB, importJob } from './modules/imports/import.job.ts';
import { ImportsService } from './modules/imports/imports.service.ts';
import {
  AccountLimits,
  databaseLimiters,
  NoticePageLimits,
  VerifyLimits,
  redisLimiters,
} from './modules/limits/limits.service.ts';
import { SendRates } from './modules/limits/send-rates.ts';
import { connectRedis, type RedisClient } from './modules/limits/redis.ts';
import { NoticePagesService } from './modules/notice-pages/notice-pages.service.ts';
import { PdfsService } from './modules/pdfs/pdfs.service.ts';
import { PostService } from './modules/post/post.service.ts';
import { RecordsService } from './modules/records/records.service.ts';
import { RetentionService } from './modules/retention/retention.service.ts';
import { BounceMailbox } from './modules/bounces/bounce-mailbox.ts';
import { BouncesService } from './modules/bounces/bounces.service.ts';
import { EmailWebhooks } from './modules/bounces/email-webhooks.service.ts';
import { SearchService } from './modules/search/search.service.ts';
import { mediaFailed } from './modules/sending/media-failures.repository.ts';
import { FailedRowsService } from './modules/sending/failed-rows.service.ts';
import { FallbackService } from './modules/fallback/fallback.service.ts';
import { SEND_JOB, SendingService } from './modules/sending/sending.service.ts';
import { WhatsappWebhooks } from './modules/sending/webhooks.service.ts';
import { SmsWebhooks } from './modules/sending/sms-webhooks.service.ts';
import { SmsTemplatesService } from './modules/sms-templates/sms-templates.service.ts';
import { msg91Sender, smsOutbox } from './lib/sms.ts';
import { TemplatesService } from './modules/templates/templates.service.ts';
import { ApprovedTemplatesService } from './modules/whatsapp-approved/approved-templates.service.ts';
import { UploadsService } from './modules/uploads/uploads.service.ts';
import { UsersService } from './modules/users/users.service.ts';

/** Everything the API and the worker are made of, built once from config and closed together. */
export interface Services {
  config: Config;
  db: Database;
  databaseKind: DatabaseKind;
  store: FileStore;
  mailer: Mailer;
  auth: AuthService;
  /** The ADMIN's Users screen: accounts listed, created, disabled, given a role or a new password. */
  users: UsersService;
  /** Set when REDIS_URL is: limits count there (the global request limit too), else in the database. */
  redis: RedisClient | undefined;
  audit: AuditService;
  records: RecordsService;
  search: SearchService;
  uploads: UploadsService;
  imports: ImportsService;
  campaigns: CampaignsService;
  /** The legal basis of notices and the dates that follow from service. */
  serviceDates: ServiceDatesService;
  templates: TemplatesService;
  /** The approved WhatsApp template per record kind, and its status at Meta. */
  approvedTemplates: ApprovedTemplatesService;
  pdfs: PdfsService;
  sending: SendingService;
  /** A campaign's failed rows, and Edit and resend. */
  failedRows: FailedRowsService;
  exports: ExportsService;
  /** Post: print file, labels, booking list, article numbers, tracking and AD cards. */
  post: PostService;
  /** Fallback ladders, and the task taking their steps; started beside the job runner. */
  fallback: FallbackService;
  evidence: EvidenceService;
  archive: ArchiveService;
  dashboard: DashboardService;
  funnel: FunnelService;
  webhooks: WhatsappWebhooks;
  /** MSG91's SMS delivery reports. */
  smsWebhooks: SmsWebhooks;
  /** The DLT template per record kind that SMS go on. */
  smsTemplates: SmsTemplatesService;
  jobs: JobRunner;
  /** The daily sweep of expired uploads and outbox files; started beside the job runner. */
  retention: RetentionService;
  bounces: BouncesService;
  /** Polls BOUNCE_IMAP_URL when set; started beside the job runner. */
  bounceMailbox: BounceMailbox | undefined;
  emailWebhooks: EmailWebhooks;
  /** The public notice page per record, its check and events, and the staff's Responses. */
  noticePages: NoticePagesService;
  /** The public verification of notices: /v/<code>, and a dropped file checked (issue 30). */
  verify: VerifyService;
  /** The ADMIN's job list. */
  jobList: JobsService;
  /** GET /api/ready: whether this process can do its work, part by part. */
  ready(): Promise<Readiness>;
  /** GET /metrics: the Prometheus text. */
  metrics(): Promise<{ contentType: string; body: string }>;
  close(): Promise<void>;
}

export async function createServices(
  config: Config,
  log: FastifyBaseLogger,
  /** A renderer the caller made and closes (the tests share one per file), instead of one of its own. */
  shared: { renderer?: PdfRenderer | undefined } = {},
): Promise<Services> {
  const { db, kind } = await openDatabase(config);
  let redis: RedisClient | undefined;
  let store: FileStore;
  try {
    await prepareSchema(db, kind === 'postgres' ? config.databaseSchema : undefined, config.migrateOnStart);
    await fillUsernameSkeletons(db);
    store = await openFileStore(config);
    if (config.redisUrl) redis = await connectRedis(config.redisUrl, log);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  if (config.databaseUrl && !config.jwtSecret)
    log.warn(
      'JWT_SECRET is unset: sessions are signed with a secret generated into DATA_DIR/secret.key. Processes sharing this DATABASE_URL with DATA_DIRs of their own sign alike only with one JWT_SECRET: set the same one on each.',
    );
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    store,
  });
  const uploads = new UploadsService(db, store, config.uploadMaxBytes);
  const secret = resolveSecret(config.jwtSecret, config.dataDir);
  const links = new PdfLinks(secret);
  const renderer =
    shared.renderer ??
    new PdfRenderer({
      executablePath: config.chromiumPath,
      wsEndpoint: config.chromiumWsEndpoint,
      log,
    });
  const where = { locale: config.locale, timeZone: config.timeZone };
  const signer = config.signing && new NoticeSigner(config.signing);
  const pdfs = new PdfsService(db, store, renderer, links, where, signer, config.appUrl);
  const { whatsapp: wa } = config;
  const cloudApi =
    wa.token && wa.phoneNumberId ? { token: wa.token, phoneNumberId: wa.phoneNumberId } : undefined;
  const approvedTemplates = new ApprovedTemplatesService({
    db,
    directory:
      cloudApi && wa.businessAccountId
        ? cloudApiTemplates({
            apiUrl: wa.apiUrl,
            token: cloudApi.token,
            businessAccountId: wa.businessAccountId,
          })
        : undefined,
    mode: cloudApi ? wa.mode : 'outbox',
  });
  const limiters = redis ? redisLimiters(redis) : databaseLimiters(db);
  const serviceDates = new ServiceDatesService(db, {
    deemedServiceDays: config.deemedServiceDays,
    postDeemedServiceDays: config.postDeemedServiceDays,
    timeZone: config.timeZone,
  });
  const noticePages = new NoticePagesService({
    db,
    serviceDates,
    store,
    tokens: new NoticePageTokens(secret),
    limits: new NoticePageLimits(limiters, config.noticePage),
    settings: config.noticePage,
    appUrl: config.appUrl,
  });
  const { sms: smsConfig } = config;
  const msg91 =
    smsConfig.authKey && smsConfig.sender && smsConfig.entityId
      ? msg91Sender({
          apiUrl: smsConfig.apiUrl,
          authKey: smsConfig.authKey,
          sender: smsConfig.sender,
          route: smsConfig.route,
        })
      : undefined;
  const smsTemplates = new SmsTemplatesService({
    db,
    via: msg91 ? 'msg91' : 'outbox',
    entityId: smsConfig.entityId,
    sender: smsConfig.sender,
    where,
  });
  const sending: SendingService = new SendingService({
    db,
    store,
    pdfs,
    mailer,
    whatsapp: cloudApi
      ? cloudApiSender({
          apiUrl: wa.apiUrl,
          ...cloudApi,
          mediaFailed: (mediaId) => mediaFailed(db, mediaId),
        })
      : outboxSender(store),
    sms: msg91 ?? smsOutbox(store, smsConfig.entityId, smsConfig.sender),
    smsTemplates,
    whatsappAloneRefused: config.whatsappAloneRefused,
    approvedTemplates,
    // Only a real provider has a limit: the outbox takes files as fast as they come.
    rates: new SendRates(limiters, {
      ...(cloudApi ? { whatsapp: config.rates.whatsapp } : {}),
      ...(config.smtpUrl ? { email: config.rates.email } : {}),
      ...(msg91 ? { sms: config.rates.sms } : {}),
    }),
    firstRetryMs: config.jobRetryBackoffMs,
    defaultCountryCode: config.defaultCountryCode,
    bouncedAddresses: config.bounces.bouncedAddresses,
    bulkSendConfirmThreshold: config.bulkSendConfirmThreshold,
    reserveWarnDays: config.reserveWarnDays,
    returnPathDomain: config.bounces.returnPathDomain,
    sendWindow: config.sendWindow,
    where,
    messageIdDomain: new URL(config.appUrl).hostname,
    onEnqueued: () => jobs.nudge(),
    noticeLinks: noticePages,
    get jobEvents(): JobRunner | undefined {
      return config.runJobs ? jobs : undefined;
    },
  });
  const fallback = new FallbackService({
    db,
    sending,
    sendWindow: config.sendWindow,
    timeZone: config.timeZone,
    everyMs: config.fallbackCheckMs,
    log,
  });
  const retention = new RetentionService(
    db,
    store,
    {
      uploadRetentionMs: config.uploadRetentionSeconds * 1000,
      outboxRetentionMs: config.outboxRetentionSeconds * 1000,
      jobRetentionMs: config.jobRetentionMs,
    },
    log,
  );
  const messageIdDomain = new URL(config.appUrl).hostname;
  const bounces = new BouncesService(db);
  const bounceMailbox = config.bounces.imapUrl
    ? new BounceMailbox(
        db,
        bounces,
        {
          url: config.bounces.imapUrl,
          pollIntervalMs: config.bounces.pollIntervalMs,
          messageIdDomain,
          returnPathDomain: config.bounces.returnPathDomain,
        },
        log,
      )
    : undefined;
  const importLimits = {
    maxRows: config.importMaxRows,
    maxUnpackedBytes: config.importMaxUnpackedBytes,
    maxSharedStringsBytes: config.importMaxSharedStringsBytes,
    locale: config.locale,
    countryCode: config.defaultCountryCode,
  };
  const jobs: JobRunner = new JobRunner({
    db,
    log,
    leaseMs: config.jobLeaseMs,
    retryBackoffMs: config.jobRetryBackoffMs,
    concurrency: config.jobConcurrency,
    onOutcome: (kind, outcome, seconds) => {
      jobOutcomes.inc({ kind, outcome });
      jobSeconds.observe({ kind }, seconds);
    },
    jobs: [
      registerJob(SEND_JOB, (context, payload) => sending.runSendJob(context, payload)),
      registerJob(IMPORT_JOB, retention.removeUploadAfterImport(importJob(db, store, importLimits))),
    ],
  });
  // PostgreSQL: a job queued by any process wakes this one's runner at once (LISTEN/NOTIFY).
  const wakeups =
    kind === 'postgres' && config.runJobs
      ? listenForJobs(
          config,
          () => jobs.nudge(),
          (err) => log.warn({ err }, 'job wake-up connection lost; opening it again (polling meanwhile)'),
        )
      : undefined;
  const queue = queueGauges(async () => {
    const now = Date.now();
    return (await queueStats(db)).map((row) => ({
      kind: row.kind,
      queued: row.queued,
      oldestSeconds: row.oldestDue ? Math.max(0, (now - Date.parse(row.oldestDue)) / 1000) : 0,
    }));
  });
  const passwords = new PasswordHasher(config.passwordHashCost);
  const auth = new AuthService({
    db,
    tokens: new SessionTokens(secret),
    passwords,
    mailer,
    limits: new AccountLimits(limiters, config.limits),
    signup: config.signup,
    log,
    sessionTtlSeconds: config.sessionTtlSeconds,
    rememberTtlSeconds: config.rememberTtlSeconds,
    appUrl: config.appUrl,
  });
  const evidence = new EvidenceService(db, pdfs, store, config.defaultCountryCode, serviceDates, where, {
    firmName: config.noticePage.firmName,
    product: PRODUCT,
    database: kind === 'postgres' ? 'PostgreSQL' : 'SQLite',
    host: new URL(config.appUrl).host,
    signer,
  });
  const records = new RecordsService(db, links, undefined, serviceDates);
  return {
    config,
    db,
    databaseKind: kind,
    store,
    mailer,
    auth,
    users: new UsersService({
      db,
      auth,
      passwords,
      mailer,
      smtpConfigured: config.smtpUrl !== undefined,
      appUrl: config.appUrl,
      timeZone: config.timeZone,
      log,
    }),
    redis,
    audit: new AuditService(db, config.timeZone),
    records,
    failedRows: new FailedRowsService(db, records, sending, config.defaultCountryCode),
    search: new SearchService(db),
    pdfs,
    sending,
    exports: new ExportsService(db, pdfs, store, where, serviceDates),
    post: new PostService(db, pdfs, store, { ...config.post, timeZone: config.timeZone }),
    fallback,
    evidence,
    archive: new ArchiveService(db, evidence),
    dashboard: new DashboardService(db),
    funnel: new FunnelService(db),
    webhooks: new WhatsappWebhooks(db, {
      appSecret: wa.appSecret,
      verifyToken: wa.verifyToken,
      maxAgeSeconds: config.webhookMaxAgeSeconds,
    }),
    smsWebhooks: new SmsWebhooks(db, { token: smsConfig.webhookToken }),
    smsTemplates,
    uploads,
    imports: new ImportsService(db, uploads, store, importLimits, () => jobs.nudge()),
    campaigns: new CampaignsService(db, undefined, config.defaultCountryCode, serviceDates),
    serviceDates,
    templates: new TemplatesService(db),
    approvedTemplates,
    jobs,
    retention,
    bounces,
    bounceMailbox,
    emailWebhooks: new EmailWebhooks(bounces, { ...config.emailWebhooks, messageIdDomain }),
    noticePages,
    verify: new VerifyService({
      db,
      store,
      limits: new VerifyLimits(limiters, config.verifyPerMinute),
      firmName: config.noticePage.firmName,
      timeZone: config.timeZone,
      signingChain: config.signing?.key.chain,
      earlierSigningChains: config.signingEarlierChains,
    }),
    jobList: new JobsService(db, config.timeZone),
    ready: () =>
      readiness({
        db,
        store,
        dataDir: config.dataDir,
        redis,
        renderer: config.runJobs ? renderer : undefined,
      }),
    metrics: () => metricsText([queue]),
    async close() {
      await wakeups?.close();
      await jobs.stop();
      await fallback.stop();
      await retention.stop();
      await bounceMailbox?.stop();
      if (!shared.renderer) await renderer.close();
      // Reset mails still on their way are sent before the mailer goes.
      await auth.mailsSettled();
      mailer.close();
      await redis?.quit();
      store.close();
      await db.destroy();
    },
  };
}
