import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const SECRET_BOX = Symbol('SECRET_BOX');

const VERSION = 'v1';

/**
 * Seals secrets the service must use later (integration secrets, webhook signing secrets) with AES-256-GCM before
 * they are stored, and opens them when they are needed. The 256-bit key is derived (HKDF-SHA-256) from the
 * configured `SECRETS_KEY` (the HKDF info string names integrations, where the box was first used; changing it
 * would make every sealed text unreadable); each sealing uses a fresh 96-bit nonce, and a context (an
 * integration's name, `webhook:<id>`) is bound in as additional data, so a sealed text moved to another owner does
 * not open. Sealed text: `v1.<nonce>.<tag>.<ciphertext>` in base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('SECRETS_KEY must be at least 32 characters');
    this.key = Buffer.from(hkdfSync('sha256', secret, 'quire', 'integration-secrets', 32));
  }

  seal(values: Record<string, string>, context: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
    return [VERSION, ...[nonce, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'))].join('.');
  }

  /** The secrets in a sealed text; throws when the text was altered, sealed for another context or another key. */
  open(sealed: string, context: string): Record<string, string> {
    const [version, nonce, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !nonce || !tag || ciphertext === undefined) {
      throw new Error('not a sealed text of this service');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as Record<string, string>;
  }
}
