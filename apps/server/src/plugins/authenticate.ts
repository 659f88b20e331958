import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { User } from '@notice-desk/contract/auth';
import { forbidden, unauthorized } from '../lib/errors.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set by the `requireUser` guard on every route its folder guards. */
    user: User;
    /** The sign-in the request's token belongs to; set with `user`. */
    sessionId: string;
    /** How long the request's token was issued for (seconds); set with `user`. */
    tokenLifetime: number | undefined;
  }
}

export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Hooks that admit only signed-in users (401 otherwise) and only ADMINs (403 otherwise). */
export function createGuards(auth: AuthService): { requireUser: Guard; requireAdmin: Guard } {
  const requireUser: Guard = async (request) => {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (!token) throw unauthorized('Sign in to continue.');
    const session = await auth.authenticate(token);
    if (!session) throw unauthorized('Your session has expired or is not valid. Please sign in again.');
    request.user = session.user;
    request.sessionId = session.sessionId;
    request.tokenLifetime = session.tokenLifetime;
  };
  const requireAdmin: Guard = async (request, reply) => {
    await requireUser(request, reply);
    if (request.user.role !== 'ADMIN') throw forbidden('Only an ADMIN can do this.');
  };
  return { requireUser, requireAdmin };
}

/** A route's guard, chosen from its method and URL; null leaves the route open to anyone. */
export type GuardChoice = (route: RouteOptions) => Guard | null;

/**
 * Declares once, for a route folder, who may call its routes. Called in the folder's own plugin (each
 * folder is registered as one, see app.ts), it puts the guard chosen for each route first among the
 * route's onRequest hooks as the route is added: every route of the folder, and none outside it. The
 * API description reads the guards from there, so they are written nowhere else.
 */
export function guardRoutesBy(folder: FastifyInstance, guardOf: GuardChoice): void {
  folder.addHook('onRoute', (route) => {
    const guard = guardOf(route);
    if (guard) route.onRequest = [guard, ...[route.onRequest ?? []].flat()];
  });
}

/** Every route of the folder behind one guard. */
export const guardRoutes = (folder: FastifyInstance, guard: Guard): void =>
  guardRoutesBy(folder, () => guard);

/** Whether a route only reads: GET, and the HEAD Fastify adds beside each GET. */
export const onlyReads = (route: RouteOptions): boolean =>
  [route.method].flat().every((method) => method === 'GET' || method === 'HEAD');
