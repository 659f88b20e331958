import { createHash, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export interface SessionClaims {
  userId: string;
  /** The sign-in this token belongs to (a row of `sessions`). */
  sessionId: string;
  issuedAt: number;
  expiresAt: number;
}

/** Signed bearer tokens (HS256 only: `alg: none` and every other algorithm are refused). */
export class SessionTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(userId: string, sessionId: string, ttlSeconds: number): Promise<string> {
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  /** The claims of a valid token, or null when it is malformed, tampered, expired or of another algorithm. */
  async verify(token: string): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.sid !== 'string' ||
        typeof payload.iat !== 'number' ||
        typeof payload.exp !== 'number'
      ) {
        return null;
      }
      return { userId: payload.sub, sessionId: payload.sid, issuedAt: payload.iat, expiresAt: payload.exp };
    } catch {
      return null;
    }
  }
}

/** A single-use secret for links: the raw value goes out, only its hash is stored. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The notice page's short-lived tokens: given for a right answer to the check, bound to one code (the
 * subject) and to this purpose (the audience), so neither a session token nor another code's opens it.
 */
export class NoticePageTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(code: string, channel: string | null, ttlSeconds: number): Promise<string> {
    return new SignJWT(channel ? { ch: channel } : {})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(code)
      .setAudience(NOTICE_PAGE_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  /** The code and channel of a valid token; 'expired', or null when it is malformed, forged or of another kind. */
  async verify(token: string): Promise<{ code: string; channel: string | null } | 'expired' | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        audience: NOTICE_PAGE_AUDIENCE,
      });
      if (typeof payload.sub !== 'string') return null;
      return { code: payload.sub, channel: typeof payload.ch === 'string' ? payload.ch : null };
    } catch (err) {
      return (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : null;
    }
  }
}

export const NOTICE_PAGE_AUDIENCE = 'notice-page';
