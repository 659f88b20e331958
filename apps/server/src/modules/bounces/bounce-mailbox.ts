import { ImapFlow } from 'imapflow';
import type { Database } from '../../db/database.ts';
import { PeriodicTask } from '../../jobs/periodic-task.ts';
import { claimScheduledRun } from '../retention/retention.repository.ts';
import {
  noBounceOutcomes,
  type BounceLog,
  type BounceOutcome,
  type BouncesService,
} from './bounces.service.ts';
import { MAX_REPORT_BYTES, readBounce } from './dsn.ts';

export const BOUNCE_POLL = 'bounce-poll';
/** Messages read in one poll; the rest wait for the next (a flood never holds the poll for long). */
const MAX_PER_POLL = 200;
const CONNECT_TIMEOUT_MS = 10_000;

export interface BounceMailboxSettings {
  /** imap:// or imaps://user:password@host:port/Mailbox */
  url: string;
  pollIntervalMs: number;
  /** The right-hand side of our Message-IDs. */
  messageIdDomain: string;
  /** BOUNCE_RETURN_PATH_DOMAIN: the domain of our VERP envelope senders (bounce+<delivery id>@…). */
  returnPathDomain?: string | undefined;
}

/** What one poll did with the messages it read. */
export type PollResult = Record<BounceOutcome | 'ignored' | 'unreadable', number>;

/**
 * Reads bounces from an IMAP mailbox (BOUNCE_IMAP_URL): each unread message is read as a delivery
 * status notification, applied to its delivery, and marked \Seen, so it is read once. A poll runs
 * once across every process that runs jobs (a claim in scheduled_runs). The mailbox being down or
 * refusing the login is logged and tried again at the next poll; it never stops the process.
 */
export class BounceMailbox {
  private readonly task: PeriodicTask;

  constructor(
    private readonly db: Database,
    private readonly bounces: BouncesService,
    private readonly settings: BounceMailboxSettings,
    private readonly log: BounceLog,
  ) {
    this.task = new PeriodicTask(() => this.runIfDue(), {
      everyMs: this.settings.pollIntervalMs,
      failure: 'bounce mailbox poll failed; it will be tried again',
      log: this.log,
    });
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** Polls when no process has within the interval; answers what it did, or undefined when not due. */
  async runIfDue(now = new Date()): Promise<PollResult | undefined> {
    // A little slack, so a timer firing a few milliseconds early does not skip its turn.
    const dueIfBefore = new Date(now.getTime() - this.settings.pollIntervalMs + 1000).toISOString();
    if (!(await claimScheduledRun(this.db, BOUNCE_POLL, now.toISOString(), dueIfBefore))) return undefined;
    return this.pollOnce();
  }

  /** One poll; undefined when the mailbox could not be reached or refused the login (logged). */
  async pollOnce(): Promise<PollResult | undefined> {
    const url = new URL(this.settings.url);
    const secure = url.protocol === 'imaps:';
    const mailbox = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'INBOX';
    const client = new ImapFlow({
      host: url.hostname,
      port: Number(url.port) || (secure ? 993 : 143),
      secure,
      auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
      logger: false,
      connectionTimeout: CONNECT_TIMEOUT_MS,
      greetingTimeout: CONNECT_TIMEOUT_MS,
      socketTimeout: 60_000,
    });
    // A dropped connection is reported here too; unheard, it would stop the process.
    client.on('error', (err: Error) =>
      this.log.warn({ host: url.hostname, err: err.message }, 'bounce mailbox connection error'),
    );
    try {
      await client.connect();
    } catch (err) {
      const failure = err as Error & { responseText?: string; authenticationFailed?: boolean };
      this.log.warn(
        { host: url.hostname, err: failure.responseText ?? failure.message },
        failure.authenticationFailed
          ? 'bounce mailbox refused the login; it will be tried again'
          : 'bounce mailbox unreachable; it will be tried again',
      );
      return undefined;
    }
    try {
      return await this.readUnseen(client, mailbox);
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  private async readUnseen(client: ImapFlow, mailbox: string): Promise<PollResult> {
    const result: PollResult = { ...noBounceOutcomes(), unreadable: 0 };
    const lock = await client.getMailboxLock(mailbox);
    try {
      const uids = (await client.search({ seen: false }, { uid: true })) || [];
      for (const uid of uids.slice(0, MAX_PER_POLL)) {
        const found = await client.fetchOne(String(uid), { size: true }, { uid: true });
        const source =
          found && found.size !== undefined && found.size <= MAX_REPORT_BYTES
            ? ((await client.fetchOne(String(uid), { source: true }, { uid: true })) || undefined)?.source
            : undefined;
        const report = source
          ? await readBounce(source, this.settings.messageIdDomain, this.settings.returnPathDomain)
          : ({ kind: 'unreadable', why: `larger than ${MAX_REPORT_BYTES} bytes` } as const);
        if (report.kind === 'bounce') {
          // A report naming several of our messages (one per recipient) applies to each.
          for (const deliveryId of report.deliveryIds)
            result[
              await this.bounces.apply(
                {
                  kind: 'bounce',
                  deliveryId,
                  recipient: report.deliveryIds.length === 1 ? report.recipient : undefined,
                  reason: report.reason,
                  eventKey: `imap:${report.reportId}`,
                },
                this.log,
              )
            ] += 1;
        } else {
          result[report.kind === 'unreadable' ? 'unreadable' : 'ignored'] += 1;
          this.log.warn({ uid, why: report.why }, 'bounce mailbox message is not a bounce we can apply');
        }
        // Marked only once applied: were the database away, the message is read again next time.
        await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
      }
    } finally {
      lock.release();
    }
    return result;
  }
}
