import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '@notice-desk/contract/auth';
import { forbidden, unauthorized } from '../lib/errors.ts';
import type { AuthService } from '../modules/auth/auth.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set by the `requireUser` hook on every route that uses it. */
    user: User;
    /** The sign-in the request's token belongs to; set with `user`. */
    sessionId: string;
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
  };
  const requireAdmin: Guard = async (request, reply) => {
    await requireUser(request, reply);
    if (request.user.role !== 'ADMIN') throw forbidden('Only an ADMIN can do this.');
  };
  return { requireUser, requireAdmin };
}
