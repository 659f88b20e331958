import { z } from 'zod';
import {
  changePasswordBody,
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
import type { AppContext, App } from '../../app-context.ts';

export function authRoutes(app: App, { auth, guards }: AppContext): void {
  app.post(
    '/api/auth/register',
    { schema: { body: registerBody, response: { 201: user } } },
    async (req, reply) => reply.status(201).send(await auth.register(req.body)),
  );

  app.post('/api/auth/login', { schema: { body: loginBody, response: { 200: loginResponse } } }, (req) =>
    auth.login(req.body, req.ip),
  );

  app.put(
    '/api/auth/update-user',
    { onRequest: guards.requireUser, schema: { body: updateUserBody, response: { 200: user } } },
    (req) => auth.updateUser(req.user._id, req.body),
  );

  app.post(
    '/api/auth/forgot-password',
    { schema: { body: forgotPasswordBody, response: { 200: messageResponse } } },
    async (req) => {
      await auth.forgotPassword(req.body.email);
      return { message: 'If that account exists, a reset link has been sent.' };
    },
  );

  app.put(
    '/api/auth/reset-password/:token',
    {
      schema: {
        params: z.object({ token: z.string().min(1).max(200) }),
        body: resetPasswordBody,
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      await auth.resetPassword(req.params.token, req.body.password);
      return { message: 'Password has been reset. Please sign in.' };
    },
  );

  app.put(
    '/api/auth/update-password',
    {
      onRequest: guards.requireUser,
      schema: { body: updatePasswordBody, response: { 200: messageResponse } },
    },
    async (req) => {
      await auth.setPassword(req.user._id, req.body.password);
      return { message: 'Password updated successfully.' };
    },
  );

  app.post(
    '/api/dashboard/change-password',
    {
      onRequest: guards.requireUser,
      schema: { body: changePasswordBody, response: { 200: messageResponse } },
    },
    async (req) => {
      await auth.changePassword(req.user._id, req.body.oldPassword, req.body.newPassword);
      return { message: 'Password updated successfully.' };
    },
  );
}
