import { z } from 'zod';

/** Longest username or name we accept; beyond it a request is refused, not truncated. */
export const NAME_MAX = 100;
export const PASSWORD_MAX = 200;

const required = (message: string, max: number) =>
  z
    // Missing says the spec's message; present but not text says so.
    .string({
      error: (issue) => (issue.input === undefined || issue.input === null ? message : 'Must be text.'),
    })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `Must be at most ${max} characters.` });

export const roles = ['ADMIN', 'USER'] as const;
export const role = z.enum(roles);
export type Role = z.infer<typeof role>;

export const user = z.object({
  _id: z.string(),
  name: z.string(),
  username: z.string(),
  role,
});
export type User = z.infer<typeof user>;

export const registerBody = z.object({
  name: required('Name is required!!', NAME_MAX),
  username: required('Username is required!!', NAME_MAX),
  password: z
    .string({ error: 'Password is required!!' })
    .min(1, { error: 'Password is required!!' })
    .max(PASSWORD_MAX, { error: `Must be at most ${PASSWORD_MAX} characters.` }),
});
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.object({
  username: required('Username is required!!', NAME_MAX),
  password: z
    .string({ error: 'Password is required!!' })
    .min(1, { error: 'Password is required!!' })
    .max(PASSWORD_MAX, { error: `Must be at most ${PASSWORD_MAX} characters.` }),
  /** 'Remeber this Device': a longer session. */
  remember: z.boolean().optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

export const loginResponse = z.object({ token: z.string(), user });
export type LoginResponse = z.infer<typeof loginResponse>;

export const updateUserBody = z.object({
  name: required('Name is required!!', NAME_MAX).optional(),
  username: required('Username is required!!', NAME_MAX).optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const forgotPasswordBody = z.object({
  email: required('Email is required!!', NAME_MAX),
});
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBody>;

const newPassword = z
  .string({ error: 'Password is required!!' })
  .min(1, { error: 'Password is required!!' })
  .max(PASSWORD_MAX, { error: `Must be at most ${PASSWORD_MAX} characters.` });

export const resetPasswordBody = z.object({ password: newPassword });
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

export const updatePasswordBody = z.object({ password: newPassword });
export type UpdatePasswordBody = z.infer<typeof updatePasswordBody>;

export const changePasswordBody = z.object({
  oldPassword: z
    .string({ error: 'Old Password is required!' })
    .min(1, { error: 'Old Password is required!' })
    .max(PASSWORD_MAX),
  newPassword: z
    .string({ error: 'New Password is required!' })
    .min(1, { error: 'New Password is required!' })
    .max(PASSWORD_MAX),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

export const registerResponse = user;
