import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Guard } from './plugins/authenticate.ts';
import type { Services } from './services.ts';

/** The Fastify instance as routes see it: schemas are zod, types are inferred from them. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What routes may use: the services, built once in buildApp and closed with the app, and the auth guards. */
export interface AppContext extends Services {
  guards: { requireUser: Guard; requireAdmin: Guard };
}
