import { endSessionsAnswer } from '@notice-desk/contract/auth';
import {
  createUserAnswer,
  createUserBody,
  managedUser,
  resetUserPasswordAnswer,
  resetUserPasswordBody,
  updateManagedUserBody,
  userIdParams,
  userList,
  userListQuery,
} from '@notice-desk/contract/users';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';

const tags = ['users'];

/** The ADMIN's Users screen. A plain user is answered 403, no session 401. */
export function usersRoutes(app: App, { users, guards }: AppContext): void {
  guardRoutes(app, guards.requireAdmin);
  // Declared once for the folder: every users route is the ADMIN's.

  app.get(
    '/api/users',
    {
      schema: {
        tags,
        summary: 'List users',
        description:
          'ADMIN only. Every account in username order, a page at a time: name, username, role, whether it is disabled, when it was created and last signed in; with the server’s TIME_ZONE, in which the screen shows those times.',
        querystring: userListQuery,
        response: { 200: userList },
      },
    },
    (req) => users.list(req.query),
  );

  app.post(
    '/api/users',
    {
      schema: {
        tags,
        summary: 'Create a user',
        description:
          "ADMIN only. Creates an account with sign-up's rules: a username taken in any letter case or normalisation form, or one that looks like a taken one, answers 409 saying which; a password has at least 8 characters and is not the username. Without a password one is generated and answered once (it is stored only as a hash). The role is USER unless ADMIN is asked for; the name defaults to the username. Audited.",
        body: createUserBody,
        response: { 201: createUserAnswer },
      },
    },
    async (req, reply) => reply.status(201).send(await users.create(req.user, req.body)),
  );

  app.patch(
    '/api/users/:id',
    {
      schema: {
        tags,
        summary: 'Disable, enable or change the role of a user',
        description:
          'ADMIN only. `disabled: true` disables the account: it cannot sign in and its sessions end (its next request answers 401); `false` enables it again. `role` makes it an ADMIN or a plain USER. The last enabled ADMIN can be neither disabled nor made a USER (409). Each change is audited. An unknown id answers 404.',
        params: userIdParams,
        body: updateManagedUserBody,
        response: { 200: managedUser },
      },
    },
    (req) => users.update(req.user, req.params.id, req.body),
  );

  app.post(
    '/api/users/:id/end-sessions',
    {
      schema: {
        tags,
        summary: "End a user's sessions",
        description:
          'ADMIN only. Signs the user out everywhere: every open session ends (their next request answers 401) and the password stays. Answers how many ended. Audited. An unknown id answers 404.',
        params: userIdParams,
        response: { 200: endSessionsAnswer },
      },
    },
    (req) => users.endSessions(req.user, req.params.id),
  );

  app.post(
    '/api/users/:id/password',
    {
      schema: {
        tags,
        summary: "Reset a user's password",
        description:
          "ADMIN only. Sets a generated password and ends the user's sessions and unused reset links. The password is answered once (it is stored only as a hash), or with `sendByMail: true` mailed to the username instead, which must be an e-mail address, with SMTP_URL set (400 otherwise; 502 when the mail server refuses, the password having changed). Audited, never with the password.",
        params: userIdParams,
        body: resetUserPasswordBody,
        response: { 200: resetUserPasswordAnswer },
      },
    },
    (req) => users.resetPassword(req.user, req.params.id, req.body.sendByMail ?? false),
  );
}
