import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const keyLength = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize('NFKC'),
      salt,
      keyLength,
      { ...options, maxmem: 128 * options.N! * options.r! * 2 },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

/**
 * Passwords hashed with scrypt, memory-hard: at the default cost (PASSWORD_HASH_COST=15, N=2^15, r=8) a
 * hash takes 32 MiB and 50-180 ms on this project's machine. Each stored hash names its own parameters,
 * so a hash made at one cost is verified at any other; the tests hash at the least cost (10: 1 MiB,
 * 2 ms), where a sign-up and a login cost 0.4 s of CPU at 15.
 */
export class PasswordHasher {
  private readonly params: { N: number; r: number; p: number };
  private decoyHash?: Promise<string>;

  constructor(cost: number) {
    this.params = { N: 2 ** cost, r: 8, p: 1 };
  }

  async hash(password: string): Promise<string> {
    const { N, r, p } = this.params;
    const salt = randomBytes(16);
    const key = await derive(password, salt, this.params);
    return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  /** Checks a password against a stored hash; with none (an unknown username), against a decoy, so timing reveals nothing. */
  async verify(password: string, stored: string | undefined): Promise<boolean> {
    const checked = stored ?? (await (this.decoyHash ??= this.hash(randomBytes(16).toString('hex'))));
    const [scheme, n, r, p, salt, key] = checked.split('$');
    if (scheme !== 'scrypt' || !salt || !key) return false;
    const expected = Buffer.from(key, 'base64');
    const actual = await derive(password, Buffer.from(salt, 'base64'), {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    });
    return stored !== undefined && actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
