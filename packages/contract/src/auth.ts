import { z } from 'zod';

/** Longest username or name we accept; beyond it a request is refused, not truncated. */
export const NAME_MAX = 100;
export const PASSWORD_MAX = 200;
/** Shortest new password (sign-up, change, reset, admin command line); existing shorter ones still sign in. */
export const PASSWORD_MIN = 8;

/** Missing says the spec's message; present but not text says so. */
const textOr = (required: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? required : 'Must be text.';

const required = (message: string, max: number) =>
  z
    .string({ error: textOr(message) })
    .trim()
    .min(1, { error: message })
    .max(max, { error: `Must be at most ${max} characters.` });

/**
 * The form a username is compared in: NFKC, then case-folded (upper then lower, so 'ß' meets 'SS'). Two
 * usernames with one key are one username; login accepts any spelling with the key of an account.
 */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/**
 * Characters no username may hold, because they are invisible or change how text around them shows:
 * controls (CR, LF, NUL…), format characters (zero-width spaces and joiners, bidi overrides, the BOM),
 * surrogates, private-use and unassigned code points, line and paragraph separators, every default-ignorable
 * character (Hangul fillers, variation selectors…) and the blank Braille pattern.
 */
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\u2800]/u;

/** What is wrong with a username as typed, or null when it is acceptable. */
export function usernameProblem(username: string): string | null {
  if (username.trim() === '') return 'Username is required!!';
  if (INVISIBLE.test(username))
    return 'Username must not contain control, invisible or text-direction characters.';
  const normalized = username.normalize('NFKC');
  if (/^\s|\s$/u.test(normalized)) return 'Username must not begin or end with a space.';
  if (normalized.length > NAME_MAX) return `Must be at most ${NAME_MAX} characters.`;
  if (!/[\p{L}\p{N}]/u.test(normalized)) return 'Username must contain a letter or a digit.';
  return null;
}

/** A username as it is stored: checked, then NFKC-normalised (case is kept for display). */
const usernameField = z
  .string({ error: textOr('Username is required!!') })
  .superRefine((value, ctx) => {
    const problem = usernameProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .normalize('NFKC');

/** What is wrong with a new password, or null. `label` names the field as its form does. */
export function newPasswordProblem(password: string, label: string, requiredMessage: string): string | null {
  if (password === '') return requiredMessage;
  if (password.length > PASSWORD_MAX) return `${label} is too long: use at most ${PASSWORD_MAX} characters.`;
  if ([...password].length < PASSWORD_MIN) return `${label} must be at least ${PASSWORD_MIN} characters.`;
  return null;
}

/** Whether a password is the username in another case or normalisation form. */
export const passwordIsUsername = (password: string, username: string) =>
  usernameKey(password) === usernameKey(username);

const newPasswordField = (label: string, requiredMessage: string) =>
  z.string({ error: textOr(requiredMessage) }).superRefine((value, ctx) => {
    const problem = newPasswordProblem(value, label, requiredMessage);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A password being checked, not chosen: any length an account may already have, within the bound. */
const currentPasswordField = (label: string, requiredMessage: string) =>
  z
    .string({ error: textOr(requiredMessage) })
    .min(1, { error: requiredMessage })
    .max(PASSWORD_MAX, { error: `${label} is too long: use at most ${PASSWORD_MAX} characters.` });

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

export const PASSWORD_IS_USERNAME = 'Password must not be the username.';

export const registerBody = z
  .object({
    name: required('Name is required!!', NAME_MAX),
    username: usernameField,
    password: newPasswordField('Password', 'Password is required!!'),
  })
  .superRefine(({ username, password }, ctx) => {
    if (passwordIsUsername(password, username))
      ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_IS_USERNAME });
  });
export type RegisterBody = z.infer<typeof registerBody>;

/** The username rules alone (the admin command line checks a username before asking for a password). */
export const usernameBody = z.object({ username: usernameField });

export const loginBody = z.object({
  username: required('Username is required!!', NAME_MAX),
  password: currentPasswordField('Password', 'Password is required!!'),
  /** 'Remeber this Device': a longer session. */
  remember: z.boolean().optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

export const loginResponse = z.object({ token: z.string(), user });
export type LoginResponse = z.infer<typeof loginResponse>;

export const updateUserBody = z.object({
  name: required('Name is required!!', NAME_MAX).optional(),
  username: usernameField.optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const forgotPasswordBody = z.object({
  email: required('Email is required!!', NAME_MAX),
});
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBody>;

export const resetPasswordBody = z.object({
  password: newPasswordField('Password', 'Password is required!!'),
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

/** PUT /api/auth/update-password: the current password too, so a stolen session cannot set a new one. */
export const updatePasswordBody = z.object({
  oldPassword: currentPasswordField('Old Password', 'Old Password is required!'),
  password: newPasswordField('Password', 'Password is required!!'),
});
export type UpdatePasswordBody = z.infer<typeof updatePasswordBody>;

export const changePasswordBody = z.object({
  oldPassword: currentPasswordField('Old Password', 'Old Password is required!'),
  newPassword: newPasswordField('New Password', 'New Password is required!'),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

export const registerResponse = user;

/** POST /api/auth/end-other-sessions and POST /api/users/{id}/end-sessions: how many sign-ins ended. */
export const endSessionsAnswer = z.object({ message: z.string(), ended: z.number().int() });
export type EndSessionsAnswer = z.infer<typeof endSessionsAnswer>;

export const authPaths = {
  login: '/api/auth/login',
  /** Ends the current session on the server: its token stops working. */
  logout: '/api/auth/logout',
  /** A new token for the current session, good for as long again as the one sent. */
  refresh: '/api/auth/refresh',
  endOtherSessions: '/api/auth/end-other-sessions',
};
