import { newId } from '../../lib/ids.ts';
import type {
  LoginBody,
  LoginResponse,
  RegisterBody,
  UpdateUserBody,
  User,
} from '@notice-desk/contract/auth';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, conflict, unauthorized } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { decoyHash, hashPassword, verifyPassword } from '../../lib/password.ts';
import type { FailureThrottle } from '../../lib/throttle.ts';
import { isoIn, nowIso } from '../../lib/time.ts';
import { hashLinkToken, newLinkToken, type SessionTokens } from '../../lib/tokens.ts';
import { appendAudit } from '../audit/audit.repository.ts';
import * as users from './auth.repository.ts';

export interface AuthDeps {
  db: Database;
  tokens: SessionTokens;
  mailer: Mailer;
  loginThrottle: FailureThrottle;
  sessionTtlSeconds: number;
  rememberTtlSeconds: number;
  appUrl: string;
}

const RESET_TTL_MS = 60 * 60 * 1000;
const USERNAME_TAKEN = { username: 'Username is already taken.' };
/** One message for an unknown username and a wrong password, so neither is revealed. */
const WRONG_CREDENTIALS = 'Invalid username or password.';

export function toUser(row: users.UserRow): User {
  return { _id: row.id, name: row.name, username: row.username, role: row.role };
}

/** How long a checked token is trusted without asking the database again. */
const SESSION_CACHE_MS = 5000;

export class AuthService {
  /** Recently checked tokens: every list page would otherwise verify a signature and read the user. */
  private readonly sessions = new Map<string, { user: User; until: number }>();

  constructor(private readonly deps: AuthDeps) {}

  async register(body: RegisterBody): Promise<User> {
    const now = nowIso();
    try {
      const passwordHash = await hashPassword(body.password);
      const row = await this.deps.db.transaction().execute(async (trx) => {
        const row = await users.insertUser(trx, {
          id: newId(),
          name: body.name,
          username: body.username,
          password_hash: passwordHash,
          created_at: now,
        });
        await appendAudit(trx, {
          actorId: row.id,
          action: 'user.register',
          subjectType: 'user',
          subjectId: row.id,
          summary: `${row.username} signed up as ${row.role}`,
          after: { name: row.name, username: row.username, role: row.role },
        });
        return row;
      });
      return toUser(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('Username is already taken.', USERNAME_TAKEN);
      throw err;
    }
  }

  async login(body: LoginBody, address: string): Promise<LoginResponse> {
    const key = `${body.username.toLowerCase()}|${address}`;
    const wait = this.deps.loginThrottle.retryAfter(key);
    if (wait > 0) {
      throw new AppError(429, 'TOO_MANY_ATTEMPTS', `Too many login attempts. Try again in ${wait} seconds.`);
    }
    const row = await users.findUserByUsername(this.deps.db, body.username);
    const valid = await verifyPassword(body.password, row?.password_hash ?? (await decoyHash));
    if (!row || !valid) {
      this.deps.loginThrottle.fail(key);
      throw new AppError(401, 'INVALID_CREDENTIALS', WRONG_CREDENTIALS, { password: WRONG_CREDENTIALS });
    }
    this.deps.loginThrottle.clear(key);
    const ttl = body.remember ? this.deps.rememberTtlSeconds : this.deps.sessionTtlSeconds;
    return { token: await this.deps.tokens.sign(row.id, ttl), user: toUser(row) };
  }

  /** The signed-in user behind a bearer token, or null. */
  async authenticate(token: string): Promise<User | null> {
    const now = Date.now();
    const cached = this.sessions.get(token);
    if (cached && cached.until > now) return cached.user;
    const claims = await this.deps.tokens.verify(token);
    if (!claims) return null;
    const row = await users.findUserById(this.deps.db, claims.userId);
    if (!row || claims.issuedAt < row.tokens_valid_after) return null;
    const user = toUser(row);
    if (this.sessions.size >= 10_000) this.sessions.clear();
    this.sessions.set(token, { user, until: Math.min(now + SESSION_CACHE_MS, claims.expiresAt * 1000) });
    return user;
  }

  async updateUser(userId: string, body: UpdateUserBody): Promise<User> {
    const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    try {
      if (Object.keys(changes).length > 0) await users.updateUser(this.deps.db, userId, changes, nowIso());
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('Username is already taken.', USERNAME_TAKEN);
      throw err;
    }
    const row = await users.findUserById(this.deps.db, userId);
    if (!row) throw unauthorized();
    this.sessions.clear();
    return toUser(row);
  }

  /** Sends a reset link when the account exists; the caller answers the same either way. */
  async forgotPassword(email: string): Promise<void> {
    const row = await users.findUserByUsername(this.deps.db, email);
    if (!row) return;
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
      to: row.username,
      subject: 'Reset your password',
      text: `Hello ${row.name},\n\nOpen this link within one hour to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this message.`,
    });
  }

  async resetPassword(token: string, password: string): Promise<void> {
    const now = nowIso();
    const passwordHash = await hashPassword(password);
    // The link is used up, the password changed and the change logged together, or none of them.
    await this.deps.db.transaction().execute(async (trx) => {
      const userId = await users.consumePasswordReset(trx, hashLinkToken(token), now);
      if (!userId) throw badRequest('This reset link is invalid, used or expired.');
      await users.updateUser(
        trx,
        userId,
        // Sessions opened before the reset end with it.
        { password_hash: passwordHash, tokens_valid_after: Math.floor(Date.now() / 1000) },
        now,
      );
      await appendAudit(trx, {
        actorId: userId,
        action: 'user.password-reset',
        subjectType: 'user',
        subjectId: userId,
        summary: 'Password reset with an e-mailed link',
      });
    });
    this.sessions.clear();
  }

  async setPassword(userId: string, password: string): Promise<void> {
    await users.updateUser(this.deps.db, userId, { password_hash: await hashPassword(password) }, nowIso());
  }

  async changePassword(userId: string, oldPassword: string, newPassword: string): Promise<void> {
    const row = await users.findUserById(this.deps.db, userId);
    if (!row) throw unauthorized();
    if (!(await verifyPassword(oldPassword, row.password_hash)))
      throw badRequest('Old password is incorrect.');
    await this.setPassword(userId, newPassword);
  }
}
