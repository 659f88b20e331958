import { describe, expect, it } from 'vitest';
import * as languageVariants from '../../db/migrations/20261125_templates_01_language_variants.ts';
import { createTestDatabase } from '../../test/app.ts';

describe('the language variants migration', () => {
  it('goes down to the templates as they were, and up again to the same seeded variants', async () => {
    const { db, close } = await createTestDatabase();
    try {
      // The migration's own view of the database: any table, any column.
      const any = db as unknown as Parameters<typeof languageVariants.up>[0];
      const variants = () =>
        any
          .selectFrom('email_templates')
          .select(['id', 'key', 'language', 'variant_of'])
          .where('variant_of', 'is not', null)
          .orderBy('id')
          .execute();
      const seeded = await variants();
      expect(seeded.map((row) => row.key).sort()).toEqual(
        [
          'notice-default',
          'credit-card-default',
          'performa-conciliation',
          'arbitration-performa',
          'dln-performa',
        ]
          .flatMap((key) => [`${key}.hi`, `${key}.ta`])
          .sort(),
      );

      await languageVariants.down(any);
      const template = await any.selectFrom('email_templates').selectAll().executeTakeFirstOrThrow();
      expect(Object.keys(template)).not.toContain('language');
      expect(Object.keys(template)).not.toContain('variant_of');
      expect(
        await any.selectFrom('email_templates').select('key').where('key', 'like', '%.hi').execute(),
      ).toEqual([]);

      await languageVariants.up(any);
      expect(await variants()).toEqual(seeded);
    } finally {
      await close();
    }
  });
});
