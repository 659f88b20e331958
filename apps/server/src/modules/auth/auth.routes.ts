import { z } from 'zod';
import {
  changePasswordBody,
  endSessionsAnswer,
  forgotPasswordBody,
  loginBody,
  loginResponse,
  messageResponse,
  registerBody,
  resetPasswordBody,
  updatePasswordBody,
  updateUserBody,
  user,
} from '@notice-desk/contract/auth';
import type { FastifyRequest } from 'fastify';
import type { AppContext, App } from '../../app-context.ts';
import { guardRoutesBy } from '../../plugins/authenticate.ts';
import { sessionsWord, type Session } from './auth.service.ts';

const tags = ['auth'];

const session = (req: FastifyRequest): Session => ({
  user: req.user,
  sessionId: req.sessionId,
  tokenLifetime: req.tokenLifetime,
});

/** What a caller with no session needs: signing up and in, and resetting a forgotten password. */
const openRoutes = new Set([
  '/api/auth/register',
  '/api/auth/login',
  '/api/auth/forgot-password',
  '/api/auth/reset-password/:token',
]);

/**
 * The two forms that set a new password given the current one: update-password, and the dashboard's
 * Change Password. The change is the same; the URL, the words and the new password's field differ.
 */
const passwordForms = [
  {
    method: 'PUT',
    url: '/api/auth/update-password',
    summary: 'Set my password',
    description:
      'Sets a new password for the signed-in user after checking the current one (oldPassword), so a stolen session token alone cannot. Every other session of the user ends; this one goes on.',
    body: updatePasswordBody,
    field: 'password',
  },
  {
    method: 'POST',
    url: '/api/dashboard/change-password',
    summary: 'Change my password',
    description:
      'Changes the signed-in user’s password after checking the old one (the dashboard’s Change Password form). Every other session of the user ends; this one goes on.',
    body: changePasswordBody,
    field: 'newPassword',
  },
] as const;

export function authRoutes(app: App, { auth, guards }: AppContext): void {
  guardRoutesBy(app, (route) => (openRoutes.has(route.url) ? null : guards.requireUser));
  app.post(
    '/api/auth/register',
    {
      schema: {
        tags,
        summary: 'Sign up',
        description:
          'Creates an account and answers it. The first account ever created is the ADMIN; later ones are plain users. A username already taken in any letter case or normalisation form, or one that looks like a taken one, answers 409. The password has at least 8 characters and is not the username. With SIGNUP=closed (or first-only once an account exists) it answers 403: an ADMIN creates accounts with the admin command line.',
        body: registerBody,
        response: { 201: user },
      },
    },
    async (req, reply) => reply.status(201).send(await auth.register(req.body, req.ip)),
  );

  app.post(
    '/api/auth/login',
    {
      schema: {
        tags,
        summary: 'Sign in',
        description:
          "Checks a username (any letter case or normalisation form) and password and answers a session token (send it as a bearer token) with the user. 'Remeber this Device' (remember) gives a longer session. Too many attempts for a username from one address, for a username or from an address answer 429, saying when to try again.",
        body: loginBody,
        response: { 200: loginResponse },
      },
    },
    (req) => auth.login(req.body, req.ip),
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        tags,
        summary: 'Sign out',
        description:
          'Ends the current session on the server: its token answers 401 from now on, on this process at once and on every other within SESSION_CACHE_MS (5 seconds). The user’s other sessions go on.',
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      await auth.logout(session(req));
      return { message: 'Logged out successfully.' };
    },
  );

  app.post(
    '/api/auth/refresh',
    {
      schema: {
        tags,
        summary: 'Stay signed in',
        description:
          'Answers a new token for the current session, good for as long again as the token sent (SESSION_TTL, or REMEMBER_TTL after "Remeber this Device"), and moves the session’s end with it. The web app asks for it when the user chooses to stay signed in, two minutes before the session ends.',
        response: { 200: loginResponse },
      },
    },
    (req) => auth.refresh(session(req)),
  );

  app.post(
    '/api/auth/end-other-sessions',
    {
      schema: {
        tags,
        summary: 'Sign out my other sessions',
        description:
          'Ends every session of the signed-in user but this one (other browsers and devices, copied tokens) and answers how many ended. Audited.',
        response: { 200: endSessionsAnswer },
      },
    },
    async (req) => {
      const ended = await auth.endOtherSessions(session(req));
      return {
        message: ended === 0 ? 'There were no other sessions.' : `${sessionsWord(ended)} ended.`,
        ended,
      };
    },
  );

  app.put(
    '/api/auth/update-user',
    {
      schema: {
        tags,
        summary: 'Update my profile',
        description:
          'Changes the signed-in user’s name or username and answers the user. The change is audited with the names before and after.',
        body: updateUserBody,
        response: { 200: user },
      },
    },
    (req) => auth.updateUser(req.user._id, req.body),
  );

  app.post(
    '/api/auth/forgot-password',
    {
      schema: {
        tags,
        summary: 'Ask for a password reset link',
        description:
          'Mails a one-hour reset link to the account whose username is this address, when that username is one valid e-mail address. The answer is the same, and as quick, whether or not the account exists or has an address. More than RESET_MAILS_PER_HOUR requests for a username or from an address answer 429.',
        body: forgotPasswordBody,
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      await auth.forgotPassword(req.body.email, req.ip);
      return { message: 'If that account exists, a reset link has been sent.' };
    },
  );

  app.put(
    '/api/auth/reset-password/:token',
    {
      schema: {
        tags,
        summary: 'Reset a password with a link',
        description:
          'Sets a new password with the token from a reset link. The link works once; sessions opened before the reset end.',
        params: z.object({ token: z.string().min(1).max(200) }),
        body: resetPasswordBody,
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      await auth.resetPassword(req.params.token, req.body.password, req.ip);
      return { message: 'Password has been reset. Please sign in.' };
    },
  );

  for (const form of passwordForms)
    app.route({
      method: form.method,
      url: form.url,
      schema: {
        tags,
        summary: form.summary,
        description: form.description,
        body: form.body,
        response: { 200: messageResponse },
      },
      handler: async (req) => {
        // The type provider cannot see through the two forms' schemas; Fastify has parsed the body by its own.
        const body = req.body as { oldPassword: string } & Record<typeof form.field, string>;
        await auth.changePassword(session(req), body.oldPassword, body[form.field], req.ip, form.field);
        return { message: 'Password updated successfully.' };
      },
    });
}
