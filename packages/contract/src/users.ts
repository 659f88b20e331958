import { z } from 'zod';
import {
  PASSWORD_IS_USERNAME,
  passwordIsUsername,
  resetPasswordBody,
  roles,
  updateUserBody,
  usernameBody,
} from './auth.ts';
import { pagingQuery } from './paging.ts';

/**
 * The ADMIN's Users screen: list accounts, create one, disable or enable one, change its role, reset its
 * password. Usernames and passwords follow sign-up's rules (the same fields).
 */

const roleField = z.enum(roles, { error: 'role must be ADMIN or USER.' });

/** An account as the Users screen shows it. */
export const managedUser = z.object({
  _id: z.string(),
  name: z.string(),
  username: z.string(),
  role: z.enum(roles),
  /** A disabled account cannot sign in; its sessions ended when it was disabled. */
  disabled: z.boolean(),
  createdAt: z.string(),
  /** The last successful sign-in (ISO), null when never (or not since the column was added). */
  lastSignInAt: z.string().nullable(),
});
export type ManagedUser = z.infer<typeof managedUser>;

export const userListQuery = pagingQuery({ limit: 25, limitMax: 100 });
export type UserListQuery = z.infer<typeof userListQuery>;

export const userList = z.object({
  items: z.array(managedUser),
  total: z.number().int(),
  /** The server's TIME_ZONE: sign-in times read the same for every ADMIN, as in the audit log. */
  timeZone: z.string(),
});
export type UserList = z.infer<typeof userList>;

export const userIdParams = z.object({ id: z.uuid({ error: 'The id is not a user id.' }) });

/** POST /api/users. Without a password one is generated and answered once; the name defaults to the username. */
export const createUserBody = z
  .object({
    name: updateUserBody.shape.name,
    username: usernameBody.shape.username,
    password: resetPasswordBody.shape.password.optional(),
    role: roleField.default('USER'),
  })
  .superRefine(({ username, password }, ctx) => {
    if (password !== undefined && passwordIsUsername(password, username))
      ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_IS_USERNAME });
  });
export type CreateUserBody = z.input<typeof createUserBody>;

export const createUserAnswer = z.object({
  user: managedUser,
  /** The generated password, present only when none was given: shown once, never stored in clear. */
  password: z.string().optional(),
});
export type CreateUserAnswer = z.infer<typeof createUserAnswer>;

/** PATCH /api/users/{id}: at least one change. */
export const updateManagedUserBody = z
  .object({
    disabled: z.boolean({ error: 'disabled must be true or false.' }).optional(),
    role: roleField.optional(),
  })
  .refine((body) => body.disabled !== undefined || body.role !== undefined, {
    error: 'Give disabled or role (or both).',
  });
export type UpdateManagedUserBody = z.infer<typeof updateManagedUserBody>;

/** POST /api/users/{id}/password: a generated password, answered once or mailed to the username. */
export const resetUserPasswordBody = z.object({
  sendByMail: z.boolean({ error: 'sendByMail must be true or false.' }).optional(),
});
export type ResetUserPasswordBody = z.infer<typeof resetUserPasswordBody>;

export const resetUserPasswordAnswer = z.object({
  message: z.string(),
  /** The new password, when it was not mailed: shown once, never stored in clear. */
  password: z.string().optional(),
  /** The address it was mailed to, when it was. */
  mailedTo: z.string().optional(),
});
export type ResetUserPasswordAnswer = z.infer<typeof resetUserPasswordAnswer>;

export const usersPaths = {
  list: '/api/users',
  user: (id: string) => `/api/users/${encodeURIComponent(id)}`,
  password: (id: string) => `/api/users/${encodeURIComponent(id)}/password`,
  endSessions: (id: string) => `/api/users/${encodeURIComponent(id)}/end-sessions`,
};
