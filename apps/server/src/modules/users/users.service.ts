import { randomInt } from 'node:crypto';
import type { EndSessionsAnswer, Role, User } from '@notice-desk/contract/auth';
import type {
  CreateUserAnswer,
  ManagedUser,
  ResetUserPasswordAnswer,
  UpdateManagedUserBody,
  UserList,
  UserListQuery,
} from '@notice-desk/contract/users';
import type { Database } from '../../db/database.ts';
import { DeepPages, PAGE_STRIDE } from '../../lib/deep-pages.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { singleMailAddress } from '../../lib/mail-address.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { PasswordHasher } from '../../lib/password.ts';
import { nowIso } from '../../lib/time.ts';
import { appendAudit, type AuditFact } from '../audit/audit.repository.ts';
import { expirePasswordResets, setUserRole } from '../auth/admin.repository.ts';
import { deleteSessions, findUserById, updateUser, type UserRow } from '../auth/auth.repository.ts';
import { createAccount, endSessions, sessionsWord, type AuthService } from '../auth/auth.service.ts';
import * as accounts from './users.repository.ts';

export interface UsersDeps {
  db: Database;
  auth: AuthService;
  passwords: PasswordHasher;
  mailer: Mailer;
  /** SMTP_URL is set: a password can be mailed (the outbox folder is no way to hand one over). */
  smtpConfigured: boolean;
  appUrl: string;
  /** TIME_ZONE: the list says it, so sign-in times read as the audit log's do. */
  timeZone?: string;
  log: { error(details: object, message: string): void };
}

/** Who acted: an ADMIN through the API, or the admin command line (no user). */
export type Actor = Pick<User, '_id' | 'username'> | null;

const LAST_ADMIN =
  'This is the last enabled ADMIN: make another user an ADMIN first, so someone can still manage users.';

/** Letters and digits that cannot be mistaken for one another when read out or copied by hand. */
const PASSWORD_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 16 characters of that alphabet: about 92 bits, in four groups of four to read off a screen. */
export function generatePassword(): string {
  const chars = Array.from({ length: 16 }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]!);
  return [0, 4, 8, 12].map((start) => chars.slice(start, start + 4).join('')).join('-');
}

const by = (actor: Actor) => (actor ? `by ${actor.username}` : 'from the admin command line');

export function toManagedUser(row: UserRow): ManagedUser {
  return {
    _id: row.id,
    name: row.name,
    username: row.username,
    role: row.role,
    disabled: row.disabled_at !== null,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

/**
 * Creates an account, for the Users screen and the admin command line alike: sign-up's username checks
 * (taken, look-alike) and insert, then the role asked for (none: what the insert decided, ADMIN for the
 * very first account) and the audit entry, in one transaction. The password is checked by the caller.
 */
export async function createUserAccount(
  db: Database,
  passwords: PasswordHasher,
  account: { name: string; username: string; password: string; role?: Role },
  actor: Actor,
): Promise<UserRow> {
  const passwordHash = await passwords.hash(account.password);
  const created = await createAccount(
    db,
    { name: account.name, username: account.username, passwordHash },
    {
      then: async (trx, row) => {
        const role = account.role ?? row.role;
        if (role !== row.role) await setUserRole(trx, row.id, role, nowIso());
        await appendAudit(trx, {
          actorId: actor?._id ?? null,
          action: 'user.create',
          subjectType: 'user',
          subjectId: row.id,
          summary: `${row.username} created as ${role} ${by(actor)}`,
          after: { name: row.name, username: row.username, role },
        });
        return { ...row, role };
      },
    },
  );
  // createAccount answers undefined only with onlyIfFirst, which is not asked for here.
  return created!;
}

/** The ADMIN's Users screen (the routes admit ADMINs only). */
export class UsersService {
  /** Deep pages of the one list (every ADMIN sees the same accounts in the same order). */
  private readonly deepPages: DeepPages<accounts.UserKey>;

  constructor(
    private readonly deps: UsersDeps,
    pageStride = PAGE_STRIDE,
  ) {
    this.deepPages = new DeepPages(pageStride);
  }

  async list({ page, limit }: UserListQuery): Promise<UserList> {
    const { db } = this.deps;
    const { total, version } = await accounts.usersState(db);
    const offset = (page - 1) * limit;
    const rows =
      offset >= total
        ? []
        : await this.deepPages.page('users', version, offset, limit, {
            fromTop: (skip, size) => accounts.listUsers(db, { offset: skip, limit: size }),
            boundaries: (stride) => accounts.userBoundaries(db, stride),
            fromKey: (from, skip, size) => accounts.listUsers(db, { offset: skip, limit: size, from }),
          });
    return { items: rows.map(toManagedUser), total, timeZone: this.deps.timeZone ?? 'Asia/Kolkata' };
  }

  async create(
    actor: User,
    body: { name?: string | undefined; username: string; password?: string | undefined; role: Role },
  ): Promise<CreateUserAnswer> {
    const generated = body.password === undefined ? generatePassword() : undefined;
    const row = await createUserAccount(
      this.deps.db,
      this.deps.passwords,
      {
        name: body.name ?? body.username,
        username: body.username,
        password: body.password ?? generated!,
        role: body.role,
      },
      actor,
    );
    return { user: toManagedUser(row), ...(generated && { password: generated }) };
  }

  /**
   * Disables or enables an account and changes its role, each audited. Disabling ends every session of
   * the user; the last enabled ADMIN can be neither disabled nor made a plain user (409).
   */
  async update(actor: User, id: string, body: UpdateManagedUserBody): Promise<ManagedUser> {
    const { db } = this.deps;
    await db.transaction().execute(async (trx) => {
      const row = await findUserById(trx, id);
      if (!row) throw notFound('User');
      const disable = body.disabled !== undefined && body.disabled !== (row.disabled_at !== null);
      const role = body.role !== undefined && body.role !== row.role ? body.role : undefined;
      const removesAnAdmin =
        row.role === 'ADMIN' && row.disabled_at === null && ((disable && body.disabled) || role === 'USER');
      if (removesAnAdmin && (await accounts.lockEnabledAdmins(trx)).every((admin) => admin === row.id))
        throw conflict(LAST_ADMIN);
      const now = nowIso();
      if (disable) {
        await accounts.setDisabledAt(trx, id, body.disabled ? now : null, now);
        // Their tokens name sessions that no longer exist: the next request answers 401.
        if (body.disabled) await deleteSessions(trx, id);
        await appendAudit(trx, userFact(actor, row, body.disabled ? 'user.disable' : 'user.enable'));
      }
      if (role) {
        await setUserRole(trx, id, role, now);
        await appendAudit(trx, {
          ...userFact(actor, row, role === 'ADMIN' ? 'user.promote' : 'user.demote'),
          before: { role: row.role },
          after: { role },
        });
      }
    });
    // Checked tokens carry the role and stand for sessions: this process asks the database again.
    this.deps.auth.forgetCheckedSessions();
    const row = await findUserById(db, id);
    if (!row) throw notFound('User');
    return toManagedUser(row);
  }

  /**
   * Signs a user out everywhere: every open session ends (their next request answers 401), audited.
   * The password stays. Answers how many sessions ended.
   */
  async endSessions(actor: User, id: string): Promise<EndSessionsAnswer> {
    const row = await findUserById(this.deps.db, id);
    if (!row) throw notFound('User');
    const ended = await endSessions(this.deps.db, id, {
      actorId: actor._id,
      summary: (count) => `${sessionsWord(count)} of ${row.username} ended ${by(actor)}`,
    });
    this.deps.auth.forgetCheckedSessions();
    const message =
      ended === 0
        ? `${row.username} had no open sessions.`
        : `${sessionsWord(ended)} of ${row.username} ended.`;
    return { message, ended };
  }

  /**
   * Sets a generated password, ends the user's sessions and unused reset links, and answers the password
   * once, or mails it to the username when that is an e-mail address and SMTP is set up.
   */
  async resetPassword(actor: User, id: string, sendByMail: boolean): Promise<ResetUserPasswordAnswer> {
    const { db, mailer } = this.deps;
    const row = await findUserById(db, id);
    if (!row) throw notFound('User');
    const to = sendByMail ? this.mailAddress(row) : undefined;
    const password = generatePassword();
    const passwordHash = await this.deps.passwords.hash(password);
    const now = nowIso();
    await db.transaction().execute(async (trx) => {
      // As the command line's reset does: sessions opened with the old password end with it.
      await updateUser(
        trx,
        id,
        { password_hash: passwordHash, tokens_valid_after: Math.floor(Date.now() / 1000) },
        now,
      );
      await deleteSessions(trx, id);
      await expirePasswordResets(trx, id, now);
      await appendAudit(trx, {
        ...userFact(actor, row, 'user.password-reset'),
        summary: `Password of ${row.username} reset ${by(actor)}${to ? ', mailed to them' : ''}`,
      });
    });
    this.deps.auth.forgetCheckedSessions();
    if (!to) return { message: `New password for ${row.username}. It is shown only once.`, password };
    try {
      await mailer.send({
        to: { name: row.name, address: to },
        subject: 'Your new password',
        text: `Hello ${row.name},\n\nAn ADMIN has set a new password for your account ${row.username}:\n\n${password}\n\nSign in at ${this.deps.appUrl}/auth/login and change it under Change Password.`,
      });
    } catch (err) {
      this.deps.log.error({ err, userId: id }, 'new password mail failed');
      throw new AppError(
        502,
        'MAIL_FAILED',
        `The password of ${row.username} was changed, but the mail could not be sent. Reset it again, without mail to see the new one.`,
      );
    }
    return { message: `A new password was mailed to ${to}.`, mailedTo: to };
  }

  /** Where a password may be mailed: SMTP set up and a username that is one address; else 400 saying which. */
  private mailAddress(row: UserRow): string {
    if (!this.deps.smtpConfigured)
      throw badRequest(
        'Mail is not set up on this server (SMTP_URL), so the password cannot be mailed. Reset without mail to see it.',
        { sendByMail: 'Mail is not set up on this server.' },
      );
    const to = singleMailAddress(row.username);
    if (!to)
      throw badRequest(
        `The username ${row.username} is not an e-mail address, so the password cannot be mailed. Reset without mail to see it.`,
        { sendByMail: 'The username is not an e-mail address.' },
      );
    return to;
  }
}

function userFact(actor: User, row: UserRow, action: AuditFact['action']): AuditFact {
  const done: Partial<Record<AuditFact['action'], string>> = {
    'user.disable': 'disabled',
    'user.enable': 'enabled',
    'user.promote': 'made an ADMIN',
    'user.demote': 'made a plain user',
    'user.password-reset': 'given a new password',
  };
  return {
    actorId: actor._id,
    action,
    subjectType: 'user',
    subjectId: row.id,
    summary: `${row.username} ${done[action]} ${by(actor)}`,
  };
}
