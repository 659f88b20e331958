import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from './database.ts';

/**
 * The ids at positions 0, stride, 2·stride, … of a list kept newest first by id: the boundaries deep
 * pages start from (lib/deep-pages.ts), read in one pass over the list's index. `list` is the list's
 * filtered query (its from and where clauses), `id` its id column.
 */
export async function idBoundaries<DB, TB extends keyof DB, O>(
  db: Database,
  list: SelectQueryBuilder<DB, TB, O>,
  id: string,
  stride: number,
): Promise<string[]> {
  const ranked = list.select([
    sql<string>`${sql.ref(id)}`.as('boundary_id'),
    sql<number>`row_number() over (order by ${sql.ref(id)} desc)`.as('position'),
  ]);
  const rows = await db
    .selectFrom(ranked.as('ranked'))
    .select(sql<string>`ranked.boundary_id`.as('boundary_id'))
    .where(sql<boolean>`(ranked.position - 1) % ${stride} = 0`)
    .orderBy(sql`ranked.boundary_id`, 'desc')
    .execute();
  return rows.map((row) => row.boundary_id);
}
