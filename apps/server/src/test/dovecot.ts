import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server-process.ts';

/** A throwaway Dovecot IMAP server on 127.0.0.1: one user, a Maildir under a temp dir. */
export interface Dovecot {
  port: number;
  user: string;
  password: string;
  /** imap://user:password@127.0.0.1:port/INBOX */
  url: string;
  stop(): Promise<void>;
}

const DOVECOT = ['/usr/sbin/dovecot', '/usr/local/sbin/dovecot'].find((file) => existsSync(file));

/** Why the Dovecot tests cannot run here, or undefined when they can. */
export const dovecotMissing: string | undefined = DOVECOT
  ? undefined
  : "Dovecot is not installed: the IMAP bounce tests are skipped (install Debian's dovecot-imapd, as `node scripts/setup.mjs --test` does).";

function userIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function waitForPort(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`Dovecot did not listen on ${port} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts Dovecot 2.3 as the current user with its own config (`-c`): plain-text login from a
 * passwd-file over loopback, no TLS, mail in a Maildir under a temp dir. Stop it after the tests.
 */
export async function startDovecot(): Promise<Dovecot> {
  if (!DOVECOT) throw new Error(dovecotMissing);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dovecot-'));
  const port = await freePort();
  const user = 'bounces';
  const password = 'bounce-secret';
  const me = os.userInfo();
  // Dovecot never runs its login processes, or reads mail, as root: as root it uses Debian's own users.
  const asRoot = me.uid === 0;
  const internal = asRoot ? 'dovecot' : me.username;
  const login = asRoot ? 'dovenull' : me.username;
  const mailOwner = asRoot ? userIds('dovecot') : { uid: me.uid, gid: me.gid };
  await fs.mkdir(path.join(dir, 'run'));
  await fs.mkdir(path.join(dir, 'mail'));
  if (asRoot) {
    await fs.chmod(dir, 0o755);
    await fs.chown(path.join(dir, 'mail'), mailOwner.uid, mailOwner.gid);
  }
  await fs.writeFile(path.join(dir, 'passwd'), `${user}:{PLAIN}${password}::::::\n`);
  const config = path.join(dir, 'dovecot.conf');
  await fs.writeFile(
    config,
    `protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${internal}
default_login_user = ${login}
first_valid_uid = ${mailOwner.uid}
first_valid_gid = ${mailOwner.gid}
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailOwner.uid} gid=${mailOwner.gid} home=${dir}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
`,
  );
  // Its master forks into the background: no output is piped, or spawnSync would wait for it.
  const started = spawnSync(DOVECOT, ['-c', config], { stdio: 'ignore' });
  const log = () => fs.readFile(path.join(dir, 'dovecot.log'), 'utf8').catch(() => '');
  if (started.status !== 0) throw new Error(`Dovecot did not start (exit ${started.status}): ${await log()}`);
  await waitForPort(port, 5000).catch(async (err: Error) => {
    throw new Error(`${err.message}\n${await log()}`);
  });
  return {
    port,
    user,
    password,
    url: `imap://${user}:${password}@127.0.0.1:${port}/INBOX`,
    async stop() {
      spawnSync(DOVECOT, ['-c', config, 'stop'], { stdio: 'ignore' });
      // Its master exits a moment after `stop`; the temp dir goes either way.
      await new Promise((r) => setTimeout(r, 100));
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
