// The emulator's API keys: HS256 JWTs it signs itself (sub = user id, accountId, iat, exp), and their checks.

import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

/** Why a token was refused (all answered 401). */
export type TokenProblem = 'missing_token' | 'malformed_token' | 'invalid_token' | 'token_expired';

/** Claims the emulator puts in its tokens. */
export interface TokenClaims {
  sub: string;
  accountId: string;
  iat: number;
  exp: number;
}

/** Signs and checks tokens with one secret. */
export class TokenIssuer {
  readonly secret: string;
  private readonly key: Uint8Array;
  /** Tokens expired ahead of their `exp` through the admin route. */
  private readonly expiredEarly = new Set<string>();

  constructor(secret?: string) {
    this.secret = secret ?? randomBytes(32).toString('base64url');
    this.key = new TextEncoder().encode(this.secret);
  }

  /** A token for the user; `ttlSeconds` may be negative for an already expired token. */
  async issue(
    userId: string,
    accountId: string,
    ttlSeconds: number,
    nowSeconds = Math.floor(Date.now() / 1000),
  ) {
    const iat = ttlSeconds < 0 ? nowSeconds + ttlSeconds - 60 : nowSeconds;
    return new SignJWT({ accountId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt(iat)
      .setExpirationTime(nowSeconds + ttlSeconds)
      .sign(this.key);
  }

  /**
   * From now on the token is refused as expired, whatever its `exp` says, so a test can make a key
   * stop working without waiting for the clock. Throws when the token is not one of this issuer's.
   * (Tokens are deterministic: one issued for the same user, second and lifetime is the same token.)
   */
  async expire(token: string): Promise<void> {
    const verdict = await this.verify(token);
    if (!verdict.ok && verdict.problem !== 'token_expired') {
      throw new Error(`Not a token of this emulator (${verdict.problem}).`);
    }
    this.expiredEarly.add(token);
  }

  /** The claims of a valid token, or why it is refused. */
  async verify(
    token: string | undefined,
  ): Promise<{ ok: true; claims: TokenClaims } | { ok: false; problem: TokenProblem }> {
    if (token === undefined || token.trim() === '') return { ok: false, problem: 'missing_token' };
    if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token))
      return { ok: false, problem: 'malformed_token' };
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.accountId !== 'string') {
        return { ok: false, problem: 'invalid_token' };
      }
      if (this.expiredEarly.has(token)) return { ok: false, problem: 'token_expired' };
      return {
        ok: true,
        claims: {
          sub: payload.sub,
          accountId: payload.accountId,
          iat: payload.iat ?? 0,
          exp: payload.exp ?? 0,
        },
      };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false, problem: 'token_expired' };
      if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
        return { ok: false, problem: 'malformed_token' };
      }
      return { ok: false, problem: 'invalid_token' };
    }
  }
}
