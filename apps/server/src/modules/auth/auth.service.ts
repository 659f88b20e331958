import {
  PASSWORD_IS_USERNAME,
  passwordIsUsername,
  usernameKey,
  type LoginBody,
  type LoginResponse,
  type RegisterBody,
  type UpdateUserBody,
  type User,
} from '@notice-desk/contract/auth';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../lib/ids.ts';
import { AppError, badRequest, conflict, forbidden, unauthorized } from '../../lib/errors.ts';
import { singleMailAddress } from '../../lib/mail-address.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { PasswordHasher } from '../../lib/password.ts';
import { isoIn, nowIso } from '../../lib/time.ts';
import { hashLinkToken, newLinkToken, type SessionTokens } from '../../lib/tokens.ts';
import { usernameSkeleton } from '../../lib/username-skeleton.ts';
import { appendAudit, type AuditFact } from '../audit/audit.repository.ts';
import type { AccountLimits } from '../limits/limits.service.ts';
import * as users from './auth.repository.ts';

/** Who may sign up: anyone, only the very first account (then an ADMIN creates users), or nobody. */
export type SignupMode = 'open' | 'first-only' | 'closed';

export interface AuthDeps {
  db: Database;
  tokens: SessionTokens;
  passwords: PasswordHasher;
  mailer: Mailer;
  limits: AccountLimits;
  signup: SignupMode;
  sessionTtlSeconds: number;
  rememberTtlSeconds: number;
  appUrl: string;
  /** Where a reset mail that could not be sent is reported (the request has been answered by then). */
  log: { error(details: object, message: string): void };
}

/** A signed-in request's user and the sign-in it came with. */
export interface Session {
  user: User;
  sessionId: string;
  /** How long the token was issued for (seconds): a refreshed token gets as long again. */
  tokenLifetime?: number;
}

const RESET_TTL_MS = 60 * 60 * 1000;
const USERNAME_TAKEN = 'Username is already taken.';
const USERNAME_LOOKS_TAKEN =
  'Username looks like an existing one (letters that look alike, such as 0 and o, l and 1, or Cyrillic а and Latin a). Choose another.';
const SIGNUP_CLOSED = 'Sign-up is closed. Ask an ADMIN to create your account.';
/** One message for an unknown username and a wrong password, so neither is revealed. */
const WRONG_CREDENTIALS = 'Invalid username or password.';

export function toUser(row: users.UserRow): User {
  return { _id: row.id, name: row.name, username: row.username, role: row.role };
}

/**
 * Refuses a username that is taken in any case or normalisation form, or that looks like one that is
 * (the same skeleton), other than `exceptUserId`'s own.
 */
export async function assertUsernameFree(
  db: Database,
  username: string,
  exceptUserId?: string,
): Promise<void> {
  const key = usernameKey(username);
  const others = (await users.findUsersLike(db, key, usernameSkeleton(username))).filter(
    (row) => row.id !== exceptUserId,
  );
  if (others.some((row) => row.username_key === key))
    throw conflict(USERNAME_TAKEN, { username: USERNAME_TAKEN });
  if (others.length > 0) throw conflict(USERNAME_LOOKS_TAKEN, { username: USERNAME_LOOKS_TAKEN });
}

/**
 * Creates an account: sign-up and the admin command line. The username is checked first; the insert
 * decides ADMIN for the first account, and `then` runs in its transaction (the audit entry, a role).
 * A unique index broken meanwhile (the same name, a look-alike or a second "first" account at the same
 * moment) sends it round again, where the check names the problem or the account is made a plain user.
 * Answers undefined when `onlyIfFirst` and accounts exist.
 */
export async function createAccount<T>(
  db: Database,
  account: { name: string; username: string; passwordHash: string },
  options: { onlyIfFirst?: boolean; then: (trx: Database, row: users.UserRow) => Promise<T> },
): Promise<T | undefined> {
  for (let attempt = 1; ; attempt++) {
    await assertUsernameFree(db, account.username);
    try {
      return await db.transaction().execute(async (trx) => {
        const row = await users.insertUser(
          trx,
          {
            id: newId(),
            name: account.name,
            username: account.username,
            password_hash: account.passwordHash,
            created_at: nowIso(),
          },
          { onlyIfFirst: options.onlyIfFirst },
        );
        return row && (await options.then(trx, row));
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (attempt === 5) throw conflict(USERNAME_TAKEN, { username: USERNAME_TAKEN });
    }
  }
}

/** Makes every existing account's look-alike skeleton; a later look-alike of an older account gets a unique stand-in. */
export async function fillUsernameSkeletons(db: Database): Promise<void> {
  for (const row of await users.findUsersWithoutSkeleton(db)) {
    const skeleton = usernameSkeleton(row.username);
    try {
      await users.setUsernameSkeleton(db, row.id, skeleton);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Unreachable by any typed username (a line feed and the id), as the migration does for keys.
      await users.setUsernameSkeleton(db, row.id, `${skeleton}\n${row.id}`);
    }
  }
}

/** How long a checked token is trusted without asking the database again (per process). */
export const SESSION_CACHE_MS = 5000;

export class AuthService {
  /** Recently checked tokens: every list page would otherwise verify a signature and read the session. */
  private readonly sessions = new Map<string, { session: Session; until: number }>();
  /**
   * Counts forgets: a check that read the database before one, and finished after it, must not put back
   * what was just forgotten (a user disabled while their dashboard's requests were in flight).
   */
  private forgets = 0;
  /** Reset mails being sent after their request was answered. */
  private readonly mailing = new Set<Promise<void>>();

  constructor(private readonly deps: AuthDeps) {}

  async register(body: RegisterBody, address: string): Promise<User> {
    const { db, signup, limits } = this.deps;
    if (signup === 'closed' || (signup === 'first-only' && (await users.anyUserExists(db))))
      throw forbidden(SIGNUP_CLOSED);
    await limits.passwordCheck(address);
    const passwordHash = await this.deps.passwords.hash(body.password);
    const row = await createAccount(
      db,
      { name: body.name, username: body.username, passwordHash },
      {
        onlyIfFirst: signup === 'first-only',
        then: async (trx, row) => {
          await appendAudit(trx, {
            actorId: row.id,
            action: 'user.register',
            subjectType: 'user',
            subjectId: row.id,
            summary: `${row.username} signed up as ${row.role}`,
            after: { name: row.name, username: row.username, role: row.role },
          });
          return row;
        },
      },
    );
    // first-only: another first account was made meanwhile.
    if (!row) throw forbidden(SIGNUP_CLOSED);
    return toUser(row);
  }

  async login(body: LoginBody, address: string): Promise<LoginResponse> {
    const { db, limits } = this.deps;
    const key = usernameKey(body.username);
    // Counted before the password is checked, in one step: concurrent guesses cannot all get an answer.
    await limits.loginAttempt(key, address);
    await limits.passwordCheck(address);
    const row = await users.findUserByUsername(db, body.username);
    const valid = await this.deps.passwords.verify(body.password, row?.password_hash);
    // A disabled account gets the same answer, after the same work: whether it exists stays unsaid.
    if (!row || !valid || row.disabled_at !== null)
      throw new AppError(401, 'INVALID_CREDENTIALS', WRONG_CREDENTIALS, { password: WRONG_CREDENTIALS });
    await limits.loginSucceeded(key, address);
    const ttl = body.remember ? this.deps.rememberTtlSeconds : this.deps.sessionTtlSeconds;
    const sessionId = newId();
    const now = nowIso();
    await users.deleteExpiredSessions(db, row.id, now);
    await users.recordSignIn(db, row.id, now);
    await users.insertSession(db, {
      id: sessionId,
      user_id: row.id,
      created_at: now,
      expires_at: isoIn(ttl * 1000),
    });
    return { token: await this.deps.tokens.sign(row.id, sessionId, ttl), user: toUser(row) };
  }

  /** The signed-in user behind a bearer token, and its session, or null. */
  async authenticate(token: string): Promise<Session | null> {
    const now = Date.now();
    const cached = this.sessions.get(token);
    if (cached && cached.until > now) return cached.session;
    const forgets = this.forgets;
    const claims = await this.deps.tokens.verify(token);
    if (!claims) return null;
    const row = await users.findSessionUser(this.deps.db, claims.sessionId, claims.userId, nowIso());
    if (!row || claims.issuedAt < row.tokens_valid_after) return null;
    const session = {
      user: toUser(row),
      sessionId: claims.sessionId,
      tokenLifetime: claims.expiresAt - claims.issuedAt,
    };
    if (forgets !== this.forgets) return session;
    if (this.sessions.size >= 10_000) this.sessions.clear();
    this.sessions.set(token, { session, until: Math.min(now + SESSION_CACHE_MS, claims.expiresAt * 1000) });
    return session;
  }

  /**
   * Logout: ends the session on the server. Its tokens stop working at once on this process; another
   * process that checked one in the last SESSION_CACHE_MS trusts it until then (docs/security.md).
   */
  async logout({ user, sessionId }: Session): Promise<void> {
    await users.deleteSession(this.deps.db, user._id, sessionId);
    this.forgetSession(sessionId);
  }

  /**
   * "Stay signed in": a new token for the same session, good for as long again as the one sent (12 hours,
   * or REMEMBER_TTL for a remembered device), and the session's end moved with it. Logout still ends both.
   */
  async refresh({ user, sessionId, tokenLifetime }: Session): Promise<LoginResponse> {
    const ttl = tokenLifetime ?? this.deps.sessionTtlSeconds;
    const extended = await users.extendSession(this.deps.db, sessionId, nowIso(), isoIn(ttl * 1000));
    if (!extended) throw unauthorized('Your session has expired or is not valid. Please sign in again.');
    return { token: await this.deps.tokens.sign(user._id, sessionId, ttl), user };
  }

  /** Change Password's "Sign out other sessions": every sign-in of the user but this one ends. Audited. */
  async endOtherSessions({ user, sessionId }: Session): Promise<number> {
    const ended = await endSessions(this.deps.db, user._id, {
      keep: sessionId,
      actorId: user._id,
      summary: (count) => `${user.username} ended ${sessionsWord(count)} of their own`,
    });
    this.forgetCheckedSessions();
    return ended;
  }

  /** Changes the name or username; a change is audited with the names before and after. */
  async updateUser(userId: string, body: UpdateUserBody): Promise<User> {
    const { db } = this.deps;
    const before = await users.findUserById(db, userId);
    if (!before) throw unauthorized();
    const changes: { name?: string; username?: string } = {};
    if (body.name !== undefined && body.name !== before.name) changes.name = body.name;
    if (body.username !== undefined && body.username !== before.username) {
      await assertUsernameFree(db, body.username, userId);
      changes.username = body.username;
    }
    if (Object.keys(changes).length > 0) {
      try {
        await db.transaction().execute(async (trx) => {
          // Written first, so the entry carries the name the user acted under.
          await appendAudit(trx, renameFact(before, changes));
          await users.updateUser(trx, userId, changes, nowIso());
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(USERNAME_TAKEN, { username: USERNAME_TAKEN });
        throw err;
      }
      this.forgetCheckedSessions();
    }
    const row = await users.findUserById(db, userId);
    if (!row) throw unauthorized();
    return toUser(row);
  }

  /**
   * Mails a reset link when `email` names an account whose username is one valid e-mail address. The
   * caller answers the same either way, and at once: the link is stored and mailed after the answer, so
   * neither an unknown user, nor a user without an address, nor a slow mail server shows in its timing.
   */
  async forgotPassword(email: string, address: string): Promise<void> {
    await this.deps.limits.resetMail(usernameKey(email), address);
    const row = await users.findUserByUsername(this.deps.db, email);
    const to = row && row.disabled_at === null ? singleMailAddress(row.username) : null;
    if (!row || !to) return;
    const mailing = this.mailResetLink(row, to).catch((err: unknown) =>
      this.deps.log.error({ err, userId: row.id }, 'password reset mail failed'),
    );
    this.mailing.add(mailing);
    void mailing.finally(() => this.mailing.delete(mailing));
  }

  /**
   * Forgets every checked token, so this process asks the database again on each one's next request:
   * called when a user's sessions end, role changes or account is disabled. Other processes trust a
   * token they checked for up to SESSION_CACHE_MS more (docs/operations.md, 'Users').
   */
  forgetCheckedSessions(): void {
    this.forgets += 1;
    this.sessions.clear();
  }

  /** Forgets the checked tokens of one session (a logout), as forgetCheckedSessions does for all. */
  private forgetSession(sessionId: string): void {
    this.forgets += 1;
    for (const [token, checked] of this.sessions)
      if (checked.session.sessionId === sessionId) this.sessions.delete(token);
  }

  /** Resolves once every reset mail started so far has been sent or has failed. */
  async mailsSettled(): Promise<void> {
    while (this.mailing.size > 0) await Promise.all([...this.mailing]);
  }

  private async mailResetLink(row: users.UserRow, address: string): Promise<void> {
    const { token, hash } = newLinkToken();
    await users.insertPasswordReset(this.deps.db, {
      id: newId(),
      user_id: row.id,
      token_hash: hash,
      expires_at: isoIn(RESET_TTL_MS),
      created_at: nowIso(),
    });
    const link = `${this.deps.appUrl}/auth/reset-password/${token}`;
    await this.deps.mailer.send({
      // An address object: nodemailer uses it as the one recipient and never parses it as a list.
      to: { name: '', address },
      subject: 'Reset your password',
      text: `Hello ${row.name},\n\nOpen this link within one hour to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this message.`,
    });
  }

  async resetPassword(token: string, password: string, address: string): Promise<void> {
    await this.deps.limits.passwordCheck(address);
    const now = nowIso();
    const passwordHash = await this.deps.passwords.hash(password);
    // The link is used up, the password changed and the change logged together, or none of them.
    await this.deps.db.transaction().execute(async (trx) => {
      const userId = await users.consumePasswordReset(trx, hashLinkToken(token), now);
      if (!userId) throw badRequest('This reset link is invalid, used or expired.');
      const row = await users.findUserById(trx, userId);
      if (!row) throw badRequest('This reset link is invalid, used or expired.');
      // Refused before anything is written: the link stays usable for a better password.
      if (passwordIsUsername(password, row.username))
        throw badRequest(PASSWORD_IS_USERNAME, { password: PASSWORD_IS_USERNAME });
      await users.updateUser(
        trx,
        userId,
        { password_hash: passwordHash, tokens_valid_after: Math.floor(Date.now() / 1000) },
        now,
      );
      // Every session ends with a reset: whoever had one may be whoever took the account.
      await users.deleteSessions(trx, userId);
      await appendAudit(trx, {
        actorId: userId,
        action: 'user.password-reset',
        subjectType: 'user',
        subjectId: userId,
        summary: 'Password reset with an e-mailed link',
      });
    });
    this.forgetCheckedSessions();
  }

  /**
   * Checks the current password, sets the new one, and ends every other session of the user: a token
   * someone else holds stops working, the session making the change goes on. `field` names the new
   * password in the form's body: `password` (update-password) or `newPassword` (the dashboard's
   * Change Password), for the message that names it.
   */
  async changePassword(
    { user, sessionId }: Session,
    oldPassword: string,
    newPassword: string,
    address: string,
    field: 'password' | 'newPassword',
  ): Promise<void> {
    const { db, limits } = this.deps;
    await limits.passwordCheck(address);
    const row = await users.findUserById(db, user._id);
    if (!row) throw unauthorized();
    if (!(await this.deps.passwords.verify(oldPassword, row.password_hash)))
      throw badRequest('Old password is incorrect.');
    if (passwordIsUsername(newPassword, row.username)) {
      const message =
        field === 'newPassword' ? 'New Password must not be the username.' : PASSWORD_IS_USERNAME;
      throw badRequest(message, { [field]: message });
    }
    const passwordHash = await this.deps.passwords.hash(newPassword);
    await db.transaction().execute(async (trx) => {
      await users.updateUser(trx, row.id, { password_hash: passwordHash }, nowIso());
      await users.deleteSessions(trx, row.id, sessionId);
      await appendAudit(trx, {
        actorId: row.id,
        action: 'user.password-change',
        subjectType: 'user',
        subjectId: row.id,
        summary: 'Password changed; every other session ended',
      });
    });
    this.forgetCheckedSessions();
  }
}

/** "1 session", "3 sessions". */
export const sessionsWord = (count: number) => `${count} ${count === 1 ? 'session' : 'sessions'}`;

/**
 * Ends a user's open sessions (all, or all but `keep`) and audits it in the same transaction; answers how
 * many were open. Expired rows are cleared first and not counted: they had ended already. The caller
 * forgets its checked tokens afterwards.
 */
export async function endSessions(
  db: Database,
  userId: string,
  { keep, actorId, summary }: { keep?: string; actorId: string; summary: (ended: number) => string },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await users.deleteExpiredSessions(trx, userId, nowIso());
    const ended = await users.deleteSessions(trx, userId, keep);
    await appendAudit(trx, {
      actorId,
      action: 'user.sessions-end',
      subjectType: 'user',
      subjectId: userId,
      summary: summary(ended),
      after: { ended },
    });
    return ended;
  });
}

function renameFact(before: users.UserRow, changes: { name?: string; username?: string }): AuditFact {
  const was = {
    ...(changes.name !== undefined && { name: before.name }),
    ...(changes.username !== undefined && { username: before.username }),
  };
  const summary =
    changes.username !== undefined
      ? `${before.username} renamed to ${changes.username}`
      : `${before.username} changed the name ${before.name} to ${changes.name}`;
  return {
    actorId: before.id,
    action: 'user.rename',
    subjectType: 'user',
    subjectId: before.id,
    summary,
    before: was,
    after: changes,
  };
}
