import { parseArgs } from 'node:util';
import {
  PASSWORD_IS_USERNAME,
  passwordIsUsername,
  registerBody,
  resetPasswordBody,
  usernameBody,
} from '@notice-desk/contract/auth';
import type { z } from 'zod';
import { ConfigError, loadConfig } from './config/env.ts';
import { openDatabase, type Database } from './db/database.ts';
import { prepareSchema } from './db/migrate.ts';
import { AppError } from './lib/errors.ts';
import { PasswordHasher } from './lib/password.ts';
import { nowIso } from './lib/time.ts';
import { appendAudit } from './modules/audit/audit.repository.ts';
import { expirePasswordResets, setUserRole } from './modules/auth/admin.repository.ts';
import { deleteSessions, findUserByUsername, updateUser } from './modules/auth/auth.repository.ts';
import { assertUsernameFree, fillUsernameSkeletons } from './modules/auth/auth.service.ts';
import { createUserAccount } from './modules/users/users.service.ts';

const usage = `Usage: npm run admin -- <command> [options]

Commands:
  create-user     --username <username> [--name <name>] [--password <password>] [--admin]
                  Creates an account: a plain user, or an ADMIN with --admin (the very first
                  account is always an ADMIN). The name defaults to the username. This is how
                  accounts are made when sign-up is closed (SIGNUP=closed or first-only).
  reset-password  --username <username> [--password <password>]
                  Sets a new password and ends the user's sessions and unused reset links.
  promote         --username <username>
                  Makes the user an ADMIN.
  help            Shows this.

Without --password the password is read from standard input when it is piped in, or asked
for without echo. A password given with --password stays in the shell's history. Passwords
have at least 8 characters and are not the username.
The database is the server's: DATA_DIR, or DATABASE_URL and DATABASE_SCHEMA.`;

/** A mistake the person at the terminal can fix: printed as one line, exit code 1. */
class AdminError extends Error {}

const options = {
  username: { type: 'string' },
  name: { type: 'string' },
  password: { type: 'string' },
  admin: { type: 'boolean' },
  email: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;
interface Flags {
  username?: string;
  name?: string;
  password?: string;
  admin?: boolean;
  email?: string;
  help?: boolean;
}

interface Command {
  flags: readonly (keyof Flags)[];
  run(db: Database, flags: Flags, passwords: PasswordHasher): Promise<string>;
}

const commands: Record<string, Command> = {
  'create-user': { flags: ['username', 'name', 'password', 'admin'], run: createUser },
  'reset-password': { flags: ['username', 'password'], run: resetPassword },
  promote: { flags: ['username'], run: promote },
};

/** The sign-up API's own rules, so the command line accepts exactly what the API would. */
function valid<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new AdminError(`--${issue.path.join('.')}: ${issue.message}`);
}

const validUsername = (username: string | undefined) => valid(usernameBody, { username }).username;

async function existingUser(db: Database, given: string | undefined) {
  const username = validUsername(given);
  const user = await findUserByUsername(db, username);
  if (!user) throw new AdminError(`No user named "${username}".`);
  return user;
}

/** The API's answer to a refused username (taken, or a look-alike of a taken one), as one line. */
async function asAdminError<T>(username: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 409)
      throw new AdminError(err.message.replace(/^Username /, `Username "${username}" `));
    throw err;
  }
}

async function createUser(db: Database, flags: Flags, passwords: PasswordHasher): Promise<string> {
  const username = validUsername(flags.username);
  await asAdminError(username, () => assertUsernameFree(db, username));
  const account = valid(registerBody, {
    name: flags.name ?? username,
    username,
    password: await readPassword(flags.password),
  });
  // The Users screen's way of creating an account; without --admin the insert decides (the first is ADMIN).
  const { role } = await asAdminError(username, () =>
    createUserAccount(db, passwords, { ...account, ...(flags.admin && { role: 'ADMIN' as const }) }, null),
  );
  return `Created ${role === 'ADMIN' ? 'ADMIN' : 'user'} "${account.username}".`;
}

async function resetPassword(db: Database, flags: Flags, passwords: PasswordHasher): Promise<string> {
  const user = await existingUser(db, flags.username);
  const { password } = valid(resetPasswordBody, { password: await readPassword(flags.password) });
  if (passwordIsUsername(password, user.username))
    throw new AdminError(`--password: ${PASSWORD_IS_USERNAME}`);
  const passwordHash = await passwords.hash(password);
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    // As a reset by link does: sessions opened with the old password end with it.
    await updateUser(
      trx,
      user.id,
      { password_hash: passwordHash, tokens_valid_after: Math.floor(Date.now() / 1000) },
      now,
    );
    await deleteSessions(trx, user.id);
    await expirePasswordResets(trx, user.id, now);
    await appendAudit(trx, {
      actorId: null,
      action: 'user.password-reset',
      subjectType: 'user',
      subjectId: user.id,
      summary: `Password of ${user.username} reset from the admin command line`,
    });
  });
  return `Password of "${user.username}" reset; their sessions and reset links have ended.`;
}

async function promote(db: Database, flags: Flags): Promise<string> {
  const user = await existingUser(db, flags.username);
  if (user.role === 'ADMIN') return `"${user.username}" is already an ADMIN.`;
  await db.transaction().execute(async (trx) => {
    await setUserRole(trx, user.id, 'ADMIN', nowIso());
    await appendAudit(trx, {
      actorId: null,
      action: 'user.promote',
      subjectType: 'user',
      subjectId: user.id,
      summary: `${user.username} promoted to ADMIN from the admin command line`,
      before: { role: user.role },
      after: { role: 'ADMIN' },
    });
  });
  return `"${user.username}" is now an ADMIN.`;
}

/** The --password flag, else the first line piped in, else asked for twice at the terminal without echo. */
async function readPassword(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  if (!process.stdin.isTTY) {
    let piped = '';
    for await (const chunk of process.stdin) piped += String(chunk);
    return piped.split(/\r?\n/)[0] ?? '';
  }
  const [password, repeated] = await askHidden(['New password: ', 'Repeat it: ']);
  if (repeated !== password) throw new AdminError('The passwords do not match.');
  return password!;
}

/** Asks at the terminal without echo. Keys typed (or pasted) ahead of a question are kept for it. */
async function askHidden(questions: string[]): Promise<string[]> {
  const input = process.stdin;
  const answers: string[] = [];
  let typed = '';
  let afterCarriageReturn = false;
  let onKeys: (keys: string) => void = () => {};
  input.setRawMode(true);
  input.setEncoding('utf8');
  process.stderr.write(questions[0]!);
  try {
    await new Promise<void>((resolve, reject) => {
      onKeys = (keys) => {
        for (const key of keys) {
          // A line typed before the terminal went raw ends in \r\n: one Enter, not two.
          const skip = key === '\n' && afterCarriageReturn;
          afterCarriageReturn = key === '\r';
          if (skip) continue;
          if (key === '\u0003') return reject(new AdminError('Cancelled.'));
          if (key === '\r' || key === '\n' || key === '\u0004') {
            answers.push(typed);
            typed = '';
            process.stderr.write('\n');
            if (answers.length === questions.length) return resolve();
            process.stderr.write(questions[answers.length]!);
          } else if (key === '\u007f' || key === '\b') {
            typed = [...typed].slice(0, -1).join('');
          } else {
            typed += key;
          }
        }
      };
      input.on('data', onKeys);
      input.resume();
    });
  } finally {
    input.off('data', onKeys);
    input.setRawMode(false);
    input.pause();
  }
  return answers;
}

/** The command and its flags; no command for help. */
function parse(argv: string[]): { command?: Command; flags: Flags } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    const option = /'(-[^']*)'/.exec((err as Error).message)?.[1];
    throw new AdminError(option ? `Unknown option ${option}.` : (err as Error).message);
  }
  const { values: flags, positionals } = parsed;
  const name = flags.help ? 'help' : (positionals[0] ?? '');
  if (!name) throw new AdminError('No command given: try create-user, reset-password, promote or help.');
  if (name === 'help') return { flags };
  const command = commands[name];
  if (!command)
    throw new AdminError(`Unknown command "${name}": try create-user, reset-password, promote or help.`);
  if (positionals.length > 1) throw new AdminError(`Unexpected argument "${positionals[1]}".`);
  if (flags.email !== undefined)
    throw new AdminError(
      'There is no --email: the username is the address password-reset links go to (--username a@x.io).',
    );
  const stray = (Object.keys(flags) as (keyof Flags)[]).find((flag) => !command.flags.includes(flag));
  if (stray) throw new AdminError(`${name} takes no --${stray}.`);
  return { command, flags };
}

async function main(argv: string[]): Promise<string> {
  const { command, flags } = parse(argv);
  if (!command) return usage;
  const config = loadConfig();
  const { db, kind } = await openDatabase(config, { checkpointer: false });
  try {
    await prepareSchema(db, kind === 'postgres' ? config.databaseSchema : undefined, config.migrateOnStart);
    await fillUsernameSkeletons(db);
    return await command.run(db, flags, new PasswordHasher(config.passwordHashCost));
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (message) => console.log(message),
  (err: unknown) => {
    // Configuration errors list one variable per line; the terminal gets them on one.
    const message = err instanceof Error ? err.message.replace(/\n\s*/g, ' ') : String(err);
    console.error(err instanceof AdminError || err instanceof ConfigError ? message : `Failed: ${message}`);
    process.exitCode = 1;
  },
);
