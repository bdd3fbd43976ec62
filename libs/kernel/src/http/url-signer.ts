import { createHmac, timingSafeEqual } from 'node:crypto';

export const URL_SIGNER = Symbol('URL_SIGNER');

/**
 * Signs the paths of downloads (files, generated PDFs) so they can be fetched without a token: the signature
 * covers the path and, when given, an expiry time. Anyone holding the URL may fetch it, so it is only handed to
 * callers who may read the resource.
 */
export class UrlSigner {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error('the signing secret must be at least 16 characters');
  }

  /** The query string (without `?`) that makes `path` fetchable, until `expiresAt` (ms since epoch) if given. */
  sign(path: string, expiresAt?: number): string {
    const expires = expiresAt === undefined ? '' : String(Math.floor(expiresAt / 1000));
    const signature = this.signature(path, expires);
    return expires ? `expires=${expires}&signature=${signature}` : `signature=${signature}`;
  }

  /** Whether `signature` (and `expires`) were made by `sign` for this path and have not expired at `now`. */
  verify(path: string, query: { signature?: unknown; expires?: unknown }, now: number): boolean {
    if (typeof query.signature !== 'string') return false;
    const expires = typeof query.expires === 'string' ? query.expires : '';
    if (expires && (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 < now)) return false;
    const given = Buffer.from(query.signature, 'base64url');
    const expected = Buffer.from(this.signature(path, expires), 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private signature(path: string, expires: string): string {
    return createHmac('sha256', this.secret).update(`download\u0000${path}\u0000${expires}`).digest('base64url');
  }
}
