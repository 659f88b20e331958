import type { Generated } from 'kysely';
import type { CreditCardFields } from '@notice-desk/contract/credit-card';
import type { NoticeFields } from '@notice-desk/contract/notice';
import type { NoticePageEvent, NoticeResponseKind } from '@notice-desk/contract/notice-page';
import type { LegalBasisName, ServedWhen } from '@notice-desk/contract/service-dates';
import type { ArticleType, PostStatus, ReturnReason } from '@notice-desk/contract/post';

/** Timestamps are ISO-8601 text (UTC): they sort and compare the same on SQLite and PostgreSQL. */
export interface UsersTable {
  id: string;
  name: string;
  username: string;
  password_hash: string;
  role: 'ADMIN' | 'USER';
  /** Tokens issued before this instant (epoch seconds) are refused: set when a password is reset. */
  tokens_valid_after: number;
  created_at: string;
  updated_at: string;
  /** The username NFKC-normalised and case-folded: unique, what login and sign-up compare. */
  username_key: string | null;
  /** The username's look-alike form (lib/username-skeleton.ts): unique, so no look-alike is let in. */
  username_skeleton: string | null;
  /** 1 on the first account ever created, null on the others: unique, so only one can be first. */
  first_account: number | null;
  /** When an ADMIN disabled the account (ISO), null while enabled: it cannot sign in. */
  disabled_at: string | null;
  /** The last successful sign-in (ISO), null when none since the column was added. */
  last_sign_in_at: string | null;
}

/** One sign-in: a session token is good while its row is. */
export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

/** rate-limiter-flexible's counters: points used by a key in its window, which ends at `expire` (epoch ms). */
export interface RateLimitsTable {
  key: string;
  points: number;
  expire: number | null;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export type RecordKind = 'credit-card' | 'notice';

export interface CampaignsTable {
  id: string;
  owner_id: string;
  kind: RecordKind;
  name: string;
  /** 'manual' for the owner's 'Manual entries' campaign of a kind, 'import' for one per imported file. */
  source: 'manual' | 'import';
  imported_count: number;
  skipped_count: number;
  /** 'importing' while an import writes its rows (hidden from every list), 'ready' once whole. */
  status: 'importing' | 'ready';
  job_id: string | null;
  created_at: string;
  /** Set when a delete left records of it archived (served evidence): the campaign leaves every list. */
  archived_at: string | null;
  /** The column mapping its import used (JSON ColumnMapping), null for manual entries and older imports. */
  column_mapping: string | null;
  /** What its import did with rows already imported ('skip', 'new', 'update'); null for manual entries and older imports. */
  duplicate_choice: 'skip' | 'new' | 'update' | null;
  /** How many of its file's rows were already imported (null where duplicate_choice is). */
  duplicate_rows: number | null;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id: string;
  kind: string;
  owner_id: string;
  subject: string;
  /** JSON */
  payload: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  /** Times the job was taken over after its worker stopped renewing the lease (a process died running it). */
  lost_leases: Generated<number>;
  run_after: string;
  lease_until: string | null;
  locked_by: string | null;
  progress: number;
  /** JSON */
  result: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface UploadsTable {
  stored_name: string;
  owner_id: string;
  original_name: string;
  size: number;
  created_at: string;
}

/** A user's confirmed column mapping for a header row of a kind, to pre-fill the next time. */
export interface ImportMappingsTable {
  owner_id: string;
  kind: RecordKind;
  /** SHA-256 of the header row's normalised cells. */
  header_key: string;
  /** JSON ColumnMapping. */
  mapping: string;
  updated_at: string;
}

export interface ImportProblemsTable {
  job_id: string;
  row_number: number;
  column_name: string;
  problem: string;
  /** 1 where the line made the import skip its row, 0 for a note on an imported row. */
  skips_row: number;
}

export interface RecordCountsTable {
  owner_id: string;
  kind: RecordKind;
  total: number;
  version: number;
}

interface RecordColumns {
  /** A UUIDv7: ordering by id is ordering by creation. */
  id: string;
  owner_id: string;
  campaign_id: string;
  created_at: string;
  updated_at: string;
  /** Set when a delete found the record served: kept as evidence, gone from every list, count and search. */
  archived_at: string | null;
  /** 'importing' while an import holds the row hidden from every list, count and search; 'live' after. */
  record_state: Generated<RecordState>;
}

export type RecordState = 'importing' | 'live';
/** The two tables of records, one per kind, with the same common columns. */
export type RecordTable = 'credit_cards' | 'notices';

export type CreditCardsTable = RecordColumns & CreditCardFields;
export type NoticesTable = RecordColumns & NoticeFields;

export interface EmailTemplatesTable {
  id: string;
  key: string;
  name: string;
  kind: RecordKind;
  html: string;
  created_at: string;
  updated_at: string;
  /** A variant's language code (`hi`); null on a default template. */
  language: string | null;
  /** The default template a variant belongs to; null on a default. */
  variant_of: string | null;
}

export interface WhatsappTemplatesTable {
  id: string;
  key: string;
  name: string;
  kind: RecordKind;
  value: string;
  created_at: string;
  updated_at: string;
  /** A variant's language code (`hi`); null on a default template. */
  language: string | null;
  /** The default template a variant belongs to; null on a default. */
  variant_of: string | null;
}

export interface WhatsappApprovedTemplatesTable {
  record_kind: RecordKind;
  name: string;
  language: string;
  /** JSON list of the field keys that fill the body's parameters, in order. */
  body_fields: string;
  updated_at: string;
  /** How it carries the notice page's link: 'button', 'body' or 'none' (null: set before issue 29, none). */
  link_by: 'button' | 'body' | 'none' | null;
  /** The URL button whose dynamic suffix is the page's code (with link_by 'button', or 'body' too). */
  link_button_index: number | null;
}

/**
 * The channels the sending service sends by. Post deliveries (channel 'post') are booked, tracked and
 * proven by modules/post alone, which reads and writes them through a view typed for them
 * (post.repository.ts), so the sending service's types stay its own.
 */
export type Channel = 'email' | 'whatsapp' | 'sms';

/** The DLT template a kind's SMS goes on (issue 31). */
export interface SmsDltTemplatesTable {
  record_kind: RecordKind;
  dlt_template_id: string;
  /** As registered on DLT, a {#var#} for each slot. */
  registered_text: string;
  /** The SMS text: the registered text with a placeholder where each slot is. */
  text: string;
  updated_at: string;
  updated_by: string | null;
}
export type DeliveryStatus =
  | 'queued'
  | 'outbox'
  | 'sent'
  | 'delivered'
  | 'read'
  | 'failed'
  | 'bounced'
  /** Left out by the send: the address cannot be served by its form (lib/serviceable.ts). */
  | 'not_serviceable';

export interface DeliveriesTable {
  id: string;
  owner_id: string;
  record_kind: RecordKind;
  record_id: string;
  campaign_id: string;
  channel: Channel;
  active_key: string | null;
  recipient: string;
  recipient_name: string;
  status: DeliveryStatus;
  status_at: string;
  provider_message_id: string | null;
  error: string | null;
  pdf_sha256: string | null;
  pdf_key: string | null;
  created_at: string;
  /** When a send last started handing it to the provider (null until then). */
  attempted_at: string | null;
  /** The record's e-mail or mobile at that moment; the message still goes to `recipient`. */
  record_address_at_send: string | null;
  /** The WhatsApp media id its PDF went by (null for e-mail and the outbox). */
  media_id: string | null;
}

export interface DeliveryEventsTable {
  delivery_id: string;
  status: DeliveryStatus;
  at: string;
  detail: string | null;
  /** A provider-reported event's identity, '<status>@<Unix seconds>', unique per delivery; null for our own. */
  provider_event: string | null;
  /** When we wrote the event (null before 28 Nov 2026): the history's order. */
  recorded_at: string | null;
  /** Why the event did not move the status; null when it did, or was only a note. */
  refused: string | null;
}

export interface AuditLogTable {
  id: string;
  at: string;
  actor_id: string | null;
  /** The actor's username when the entry was written (null on entries older than the column). */
  actor_username: string | null;
  action: string;
  subject_type: string;
  subject_id: string | null;
  summary: string;
  /** JSON */
  before: string | null;
  /** JSON */
  after: string | null;
}

/** One term a record is found by (see modules/search/search-terms.ts). */
export interface RecordSearchTable {
  owner_id: string;
  term: string;
  record_id: string;
  kind: RecordKind;
  /** The record field the term comes from: custName, loanNo, maskNo, custMobileNo or referenceNo. */
  field: string;
  campaign_id: string;
}

/** An address a message bounced from or failed at for good (see modules/bounces). */
export interface UndeliverableAddressesTable {
  owner_id: string;
  channel: Channel;
  /** Lower-cased e-mail address, or the mobile number as recorded. */
  address: string;
  /** The delivery that bounced or failed last. */
  delivery_id: string;
  reason: string;
  at: string;
}

/** A media id WhatsApp failed a message for (a status webhook's 131053): never used again (lib/whatsapp.ts). */
export interface WhatsappMediaFailuresTable {
  media_id: string;
  /** WhatsApp's time of the failure. */
  failed_at: string;
}

/** When each scheduled chore last ran (see modules/retention/retention.service.ts). */
export interface ScheduledRunsTable {
  name: string;
  last_run_at: string;
}

/** A record's notice page (issue 29): `APP_URL/n/<code>`, the same code across resends. */
export interface NoticeLinksTable {
  code: string;
  owner_id: string;
  record_kind: RecordKind;
  record_id: string;
  campaign_id: string;
  created_at: string;
  failed_checks: Generated<number>;
  locked_until: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
}

/** A record's verification code (issue 30): printed on its notice as a QR code and `APP_URL/v/<code>`. */
export interface VerifyCodesTable {
  code: string;
  owner_id: string;
  record_kind: RecordKind;
  record_id: string;
  created_at: string;
}

/** The notice page a visitor acted on (its code) and the record it shows, on each row of what they did. */
interface NoticePageActionColumns {
  id: string;
  code: string;
  owner_id: string;
  record_kind: RecordKind;
  record_id: string;
  campaign_id: string;
}

/** What a visitor did on a notice page; appended, never changed (contract/notice-page.ts names them). */
export interface NoticePageEventsTable extends NoticePageActionColumns {
  event: NoticePageEvent;
  channel: string | null;
  at: string;
  ip: string | null;
  user_agent: string | null;
  detail: string | null;
}

/**
 * A record's first dispatch and first receipt in a campaign, kept by triggers as delivery and notice
 * page events are written (migration 20261130_service_01): what the service filters read.
 */
export interface RecordServiceFactsTable {
  campaign_id: string;
  record_id: string;
  /** The first sent, delivered or read on any channel but post (ISO). */
  dispatch_at: string | null;
  /** The first delivered or read on any channel (ISO). */
  receipt_at: string | null;
  /** The first booking (sent) of a letter by post that was not returned (ISO). */
  post_dispatch_at: string | null;
  /** The notice page's first verified or acknowledged (ISO). */
  page_receipt_at: string | null;
}

/**
 * Each campaign's count version, moved by triggers on every write to what the campaign page counts
 * (migration 20261201_campaign_counts_01): its sum over the writers is the version.
 */
export interface CampaignCountVersionsTable {
  campaign_id: string;
  /** PostgreSQL's server process that wrote (pg_backend_pid); 0 on SQLite. */
  writer: number;
  version: number | string;
}

/** A dispute, a request to settle or a call-back request from a notice page. */
export interface NoticeResponsesTable extends NoticePageActionColumns {
  kind: NoticeResponseKind;
  text: string;
  file_key: string | null;
  file_name: string | null;
  file_type: string | null;
  file_sha256: string | null;
  created_at: string;
  handled_at: string | null;
  handled_by: string | null;
}

/** A legal basis and response period: a record kind's default, or a campaign's own (scope 'campaign'). */
export interface LegalBasesTable {
  scope: 'kind' | 'campaign';
  /** The record kind, or the campaign's id. */
  scope_id: string;
  basis: LegalBasisName;
  label: string;
  period_days: number;
  served_when: ServedWhen;
  updated_at: string;
  updated_by: string;
}

/** A post delivery's article: its S10 number and its own path (modules/post). */
export interface PostArticlesTable {
  delivery_id: string;
  owner_id: string;
  campaign_id: string;
  record_kind: RecordKind;
  record_id: string;
  article_number: string;
  article_type: ArticleType;
  post_status: PostStatus;
  return_reason: ReturnReason | null;
  status_at: string;
  created_at: string;
}

/** A scanned AD card or returned envelope, kept by the storage class. */
export interface PostProofsTable {
  id: string;
  delivery_id: string;
  owner_id: string;
  file_key: string;
  file_name: string;
  content_type: string;
  sha256: string;
  /** YYYY-MM-DD the card bears, when given. */
  delivered_on: string | null;
  created_at: string;
}

/** A fallback ladder (issue 31): a record kind's default (scope 'kind') or a campaign's own. */
export interface FallbackLaddersTable {
  scope: 'kind' | 'campaign';
  /** The record kind, or the campaign's id. */
  scope_id: string;
  /** JSON Ladder (contract/fallback.ts). */
  ladder: string;
  updated_at: string;
  updated_by: string;
}

/** A ladder step's claim and decision for one record: one row per record and step channel. */
export interface FallbackStepsTable {
  record_kind: RecordKind;
  record_id: string;
  channel: 'email' | 'whatsapp' | 'sms' | 'post';
  owner_id: string;
  campaign_id: string;
  step_after: number;
  step_unless: 'delivered' | 'read' | 'opened' | 'acknowledged' | null;
  outcome: 'claimed' | 'taken' | 'skipped' | 'not_sent';
  /** The decision in words, as the record's trail has it. */
  decision: string | null;
  claimed_at: string;
  decided_at: string | null;
  /** The delivery whose trail holds the decision. */
  delivery_id: string | null;
}

/**
 * A campaign whose ladder had nothing left to decide, under `ladder` (its JSON as it was then); a new
 * delivery of the campaign deletes the row (migration 20261201_fallback_02).
 */
export interface FallbackFinishedTable {
  campaign_id: string;
  ladder: string;
  finished_at: string;
}

export interface DB {
  users: UsersTable;
  password_resets: PasswordResetsTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  campaigns: CampaignsTable;
  record_counts: RecordCountsTable;
  credit_cards: CreditCardsTable;
  notices: NoticesTable;
  jobs: JobsTable;
  uploads: UploadsTable;
  import_problems: ImportProblemsTable;
  import_mappings: ImportMappingsTable;
  email_templates: EmailTemplatesTable;
  whatsapp_templates: WhatsappTemplatesTable;
  whatsapp_approved_templates: WhatsappApprovedTemplatesTable;
  sms_dlt_templates: SmsDltTemplatesTable;
  deliveries: DeliveriesTable;
  delivery_events: DeliveryEventsTable;
  record_search: RecordSearchTable;
  audit_log: AuditLogTable;
  scheduled_runs: ScheduledRunsTable;
  undeliverable_addresses: UndeliverableAddressesTable;
  whatsapp_media_failures: WhatsappMediaFailuresTable;
  notice_links: NoticeLinksTable;
  verify_codes: VerifyCodesTable;
  notice_page_events: NoticePageEventsTable;
  notice_responses: NoticeResponsesTable;
  legal_bases: LegalBasesTable;
  record_service_facts: RecordServiceFactsTable;
  campaign_count_versions: CampaignCountVersionsTable;
  post_articles: PostArticlesTable;
  post_proofs: PostProofsTable;
  fallback_ladders: FallbackLaddersTable;
  fallback_steps: FallbackStepsTable;
  fallback_finished: FallbackFinishedTable;
}
