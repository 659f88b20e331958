import { Migrator, type Migration, type MigrationInfo } from 'kysely';
import type { Database } from './database.ts';
import * as users from './migrations/20261122_01_users.ts';
import * as records from './migrations/20261122_02_records.ts';
import * as jobs from './migrations/20261122_03_jobs.ts';
import * as templates from './migrations/20261122_04_templates.ts';
import * as deliveries from './migrations/20261122_05_deliveries.ts';
import * as search from './migrations/20261123_01_search.ts';
import * as audit from './migrations/20261123_02_audit.ts';
import * as webhookEvents from './migrations/20261124_webhooks_01_provider_events.ts';
import * as accountUsernames from './migrations/20261124_accounts_01_usernames.ts';
import * as accountSessions from './migrations/20261124_accounts_02_sessions.ts';
import * as accountRateLimits from './migrations/20261124_accounts_03_rate_limits.ts';
import * as accountAuditActorUsername from './migrations/20261124_accounts_04_audit_actor_username.ts';
import * as archivedAt from './migrations/20261125_archive_01_archived_at.ts';
import * as sendingRecordAddressAtSend from './migrations/20261125_sending_01_record_address_at_send.ts';
import * as jobLostLeases from './migrations/20261125_imports_01_job_lost_leases.ts';
import * as undeliverableAddresses from './migrations/20261125_bounces_01_undeliverable_addresses.ts';
import * as templateLanguageVariants from './migrations/20261125_templates_01_language_variants.ts';
import * as whatsappApprovedTemplates from './migrations/20261125_whatsapp_01_approved_templates.ts';
import * as importColumnMappings from './migrations/20261125_061451_imports_column_mappings.ts';
import * as usersDisabledAt from './migrations/20261125_061224_users_disabled_at.ts';
import * as recordState from './migrations/20261126_151722_records_record_state.ts';
import * as recordOwnerListIndex from './migrations/20261126_183500_records_owner_list_index.ts';
import * as recordsArchivedPartialIndex from './migrations/20261126_185000_records_archived_partial_index.ts';
import * as searchTermsCampaignTrigger from './migrations/20261126_185100_search_terms_campaign_trigger.ts';
import * as whatsappMediaFailures from './migrations/20261127_whatsapp_02_media_failures.ts';
import * as eventRecordedRefused from './migrations/20261128_evidence_01_event_recorded_refused.ts';
import * as confusableSkeletons from './migrations/20261128_accounts_02_confusable_skeletons.ts';
import * as problemSkipsRow from './migrations/20261128_imports_01_problem_skips_row.ts';
import * as duplicatesCampaignChoice from './migrations/20261129_duplicates_01_campaign_choice.ts';
import * as noticeLinks from './migrations/20261129_receipt_01_notice_links.ts';
import * as approvedTemplateLink from './migrations/20261129_receipt_02_approved_template_link.ts';
import * as funnelIndexes from './migrations/20261129_receipt_05_funnel_indexes.ts';
import * as serviceFacts from './migrations/20261130_service_01_record_facts.ts';
import * as servicePostDeemed from './migrations/20261130_service_02_post_deemed.ts';
import * as smsDltTemplates from './migrations/20261130_sms_01_dlt_templates.ts';
import * as legalBasis from './migrations/20261129_receipt_02_legal_basis.ts';
import * as verifyCodes from './migrations/20261130_verify_01_verify_codes.ts';
import * as jobsListIndex from './migrations/20261129_deploy_01_jobs_list_index.ts';
import * as postArticles from './migrations/20261130_post_01_articles.ts';
import * as fallbackLadders from './migrations/20261130_fallback_01_ladders.ts';
import * as campaignCountVersions from './migrations/20261201_campaign_counts_01_versions.ts';
import * as sendingBorrowerIndex from './migrations/20261201_sending_01_borrower_index.ts';
import * as keepSignature from './migrations/20261201_templates_02_keep_signature.ts';
import * as fallbackFinished from './migrations/20261201_fallback_02_finished.ts';

/** Every migration, in order. A new migration file is added here with its date-prefixed name. */
export const migrations: Record<string, Migration> = {
  '20261122_01_users': users,
  '20261122_02_records': records,
  '20261122_03_jobs': jobs,
  '20261122_04_templates': templates,
  '20261122_05_deliveries': deliveries,
  '20261123_01_search': search,
  '20261123_02_audit': audit,
  '20261124_webhooks_01_provider_events': webhookEvents,
  '20261124_accounts_01_usernames': accountUsernames,
  '20261124_accounts_02_sessions': accountSessions,
  '20261124_accounts_03_rate_limits': accountRateLimits,
  '20261124_accounts_04_audit_actor_username': accountAuditActorUsername,
  '20261125_archive_01_archived_at': archivedAt,
  '20261125_sending_01_record_address_at_send': sendingRecordAddressAtSend,
  '20261125_imports_01_job_lost_leases': jobLostLeases,
  '20261125_bounces_01_undeliverable_addresses': undeliverableAddresses,
  '20261125_templates_01_language_variants': templateLanguageVariants,
  '20261125_whatsapp_01_approved_templates': whatsappApprovedTemplates,
  '20261125_061451_imports_column_mappings': importColumnMappings,
  '20261125_061224_users_disabled_at': usersDisabledAt,
  '20261126_151722_records_record_state': recordState,
  '20261126_183500_records_owner_list_index': recordOwnerListIndex,
  '20261126_185000_records_archived_partial_index': recordsArchivedPartialIndex,
  '20261126_185100_search_terms_campaign_trigger': searchTermsCampaignTrigger,
  '20261127_whatsapp_02_media_failures': whatsappMediaFailures,
  '20261128_evidence_01_event_recorded_refused': eventRecordedRefused,
  '20261128_accounts_02_confusable_skeletons': confusableSkeletons,
  '20261128_imports_01_problem_skips_row': problemSkipsRow,
  '20261129_duplicates_01_campaign_choice': duplicatesCampaignChoice,
  '20261129_receipt_01_notice_links': noticeLinks,
  '20261129_receipt_02_approved_template_link': approvedTemplateLink,
  '20261129_receipt_05_funnel_indexes': funnelIndexes,
  '20261130_sms_01_dlt_templates': smsDltTemplates,
  '20261129_receipt_02_legal_basis': legalBasis,
  '20261130_service_01_record_facts': serviceFacts,
  '20261130_service_02_post_deemed': servicePostDeemed,
  '20261130_verify_01_verify_codes': verifyCodes,
  '20261129_deploy_01_jobs_list_index': jobsListIndex,
  '20261130_post_01_articles': postArticles,
  '20261130_fallback_01_ladders': fallbackLadders,
  '20261201_campaign_counts_01_versions': campaignCountVersions,
  '20261201_sending_01_borrower_index': sendingBorrowerIndex,
  '20261201_templates_02_keep_signature': keepSignature,
  '20261201_fallback_02_finished': fallbackFinished,
};

/**
 * A migration that exports `outsideTransaction = true` runs on its own, outside any transaction, on
 * PostgreSQL: `CREATE INDEX CONCURRENTLY` (an index on a big table built without blocking its writes)
 * cannot run in one. Every other migration runs, as before, in the one transaction of its batch.
 */
const outsideTransaction = (migration: Migration): boolean =>
  (migration as { outsideTransaction?: boolean }).outsideTransaction === true;

/**
 * Brings the schema up to date; several processes starting at once take turns on Kysely's lock.
 * On PostgreSQL the schema is named: Kysely otherwise looks for its tables in every schema of the
 * database and, finding another schema's, skips creating its own.
 */
export async function migrateToLatest(db: Database, postgresSchema?: string): Promise<void> {
  // In batches: the migrations up to the next one that runs outside a transaction, then that one alone.
  // Each batch's migrator sees the migrations already run and its own, and re-reads under Kysely's lock
  // what has run, so processes migrating at once still take turns and never run one twice.
  for (;;) {
    const pending = await pendingMigrations(db, postgresSchema);
    if (pending.length === 0) return;
    const alone = outsideTransaction(migrations[pending[0]!]!);
    const end = alone ? 1 : pending.findIndex((name) => outsideTransaction(migrations[name]!));
    const batch = new Set(pending.slice(0, end === -1 ? undefined : end));
    const given = Object.fromEntries(
      Object.entries(migrations).filter(([name]) => !pending.includes(name) || batch.has(name)),
    );
    const { error, results } = await migrator(db, postgresSchema, given, alone).migrateToLatest();
    // Another process ran a later migration of ours between our look and our turn: look again.
    const missing = /previously executed migration (\S+) is missing/.exec(String((error as Error)?.message));
    if (missing && missing[1]! in migrations) continue;
    const failed = results?.find((r) => r.status === 'Error');
    if (error || failed) {
      const cause = error instanceof Error ? error.message : String(error ?? '');
      throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`);
    }
  }
}

function migrator(
  db: Database,
  postgresSchema: string | undefined,
  given: Record<string, Migration>,
  disableTransactions = false,
): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => given },
    // Names carry the time they were written (20261125_061224_…), which can sort before a name written
    // earlier (20261125_whatsapp_…): a database that ran the earlier ones still takes the new one.
    allowUnorderedMigrations: true,
    disableTransactions,
    ...(postgresSchema ? { migrationTableSchema: postgresSchema } : {}),
  });
}

/** The names of the migrations this database has not run, in the order they run. */
export async function pendingMigrations(db: Database, postgresSchema?: string): Promise<string[]> {
  const all: readonly MigrationInfo[] = await migrator(db, postgresSchema, migrations).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/**
 * What a process does with the schema as it starts: with MIGRATE_ON_START (the embedded default) it
 * migrates; without, a database that is behind stops the start, naming the first migration it lacks
 * (several processes are migrated once, by `npm run migrate`, before they start).
 */
export async function prepareSchema(
  db: Database,
  postgresSchema: string | undefined,
  migrateOnStart: boolean,
): Promise<void> {
  if (migrateOnStart) return migrateToLatest(db, postgresSchema);
  const pending = await pendingMigrations(db, postgresSchema);
  if (pending.length > 0) {
    const more = pending.length > 1 ? ` and ${pending.length - 1} more` : '';
    throw new Error(
      `The database is behind this version: migration ${pending[0]}${more} has not run. ` +
        'Run `npm run migrate` first (MIGRATE_ON_START is false).',
    );
  }
}
