import { type Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.

/** The username key as this migration knows it: NFKC, then case-folded. */
const keyOf = (username: string) => username.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');

export async function up(db: Kysely<any>): Promise<void> {
  // username_key: the form usernames are compared in (unique). username_skeleton: the look-alike form
  // (unique), filled by the app at start, since its table of look-alikes is app code that may grow.
  // first_account: 1 on the very first account and null on every other (unique), so two first
  // sign-ups at one moment cannot both become ADMIN: the second breaks the index and is retried.
  await db.schema.alterTable('users').addColumn('username_key', 'text').execute();
  await db.schema.alterTable('users').addColumn('username_skeleton', 'text').execute();
  await db.schema.alterTable('users').addColumn('first_account', 'integer').execute();

  // Existing usernames were unique by lower(username) only. Where two now share a key ('Straße' and
  // 'STRASSE', a full-width 'ａｓｈａ' and 'asha'), the oldest account keeps the key; each later one gets
  // a key no typed username can have (a line feed and its id), so it still signs in by its exact
  // username and nobody else's spelling reaches it.
  const users = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const taken = new Set<string>();
  for (const user of users as { id: string; username: string }[]) {
    let key = keyOf(user.username);
    if (taken.has(key)) key = `${key}\n${user.id}`;
    taken.add(key);
    await db.updateTable('users').set({ username_key: key }).where('id', '=', user.id).execute();
  }

  await db.schema.createIndex('users_username_key_key').on('users').column('username_key').unique().execute();
  await db.schema
    .createIndex('users_username_skeleton_key')
    .on('users')
    .column('username_skeleton')
    .unique()
    .execute();
  await db.schema
    .createIndex('users_first_account_key')
    .on('users')
    .column('first_account')
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_first_account_key').execute();
  await db.schema.dropIndex('users_username_skeleton_key').execute();
  await db.schema.dropIndex('users_username_key_key').execute();
  await db.schema.alterTable('users').dropColumn('first_account').execute();
  await db.schema.alterTable('users').dropColumn('username_skeleton').execute();
  await db.schema.alterTable('users').dropColumn('username_key').execute();
}
