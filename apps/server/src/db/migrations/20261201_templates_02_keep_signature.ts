import { sql, type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
//
// The seeded PDF templates' signature block (`.sign`) is kept on the page of the paragraph before it
// (`break-before: avoid`, which Chromium's print layout honours): a Hindi or Tamil notice one page
// long with the block left over printed the signature and the verification QR code alone on page 2,
// where a reader cannot tell which notice they close. Only templates that still carry the seeded rule,
// word for word, change; a template whose style an ADMIN rewrote keeps its own. The change is to layout
// only: no word of a notice moves, and kept PDFs are printed anew as the template's text changed.

const SEEDED = '.sign { margin-top: 12mm; }';
const KEPT = '.sign { margin-top: 12mm; break-before: avoid; page-break-before: avoid; }';

const swap = async (db: Kysely<any>, from: string, to: string) => {
  await sql`update email_templates set html = replace(html, ${from}, ${to}) where html like ${`%${from}%`}`.execute(
    db,
  );
};

export async function up(db: Kysely<any>): Promise<void> {
  await swap(db, SEEDED, KEPT);
}

export async function down(db: Kysely<any>): Promise<void> {
  await swap(db, KEPT, SEEDED);
}
