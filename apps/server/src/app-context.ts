import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config/env.ts';
import type { Database, DatabaseKind } from './db/database.ts';
import type { Mailer } from './lib/mailer.ts';
import type { AuthService } from './modules/auth/auth.service.ts';
import type { RecordsService } from './modules/records/records.service.ts';
import type { Guard } from './plugins/authenticate.ts';

/** The Fastify instance as routes see it: schemas are zod, types are inferred from them. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What routes may use: built once in buildApp, closed with the app. */
export interface AppContext {
  config: Config;
  db: Database;
  databaseKind: DatabaseKind;
  mailer: Mailer;
  auth: AuthService;
  records: RecordsService;
  guards: { requireUser: Guard; requireAdmin: Guard };
}
