import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type KeyStore } from '@app/kernel';
import { type PersonalText, type Sealed } from '../../domain/personal-text';

const VERSION = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The key of a user's personal data (their email, name, token labels). */
export const userSubject = (userId: string) => `user:${userId}`;
/** The key of an address invited before it has a user (the key of its `email-<key>` stream). */
export const addressSubject = (emailKey: string) => `address:${emailKey}`;

/** The ciphertext is bound to its subject: a sealed value moved to another person's record does not open. */
const additionalData = (subject: string) => Buffer.from(`quire-personal-v1\u0000${subject}`, 'utf8');

export function isSealed(value: unknown): value is Sealed {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Sealed).enc === 'string' &&
    typeof (value as Sealed).subject === 'string'
  );
}

/** AES-256-GCM with a random 96-bit IV: `{enc: "v1:" + base64(iv ‖ ciphertext ‖ tag), subject}`. */
export function seal(key: Buffer, subject: string, text: string): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(additionalData(subject));
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return { enc: VERSION + Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64'), subject };
}

/** The sealed text, or undefined when it does not open with this key (another key, or altered). */
export function unseal(key: Buffer, sealed: Sealed): string | undefined {
  if (!sealed.enc.startsWith(VERSION)) return undefined;
  const bytes = Buffer.from(sealed.enc.slice(VERSION.length), 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(additionalData(sealed.subject));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Seals and opens personal data with the keys of the key store. Plain (no Nest) so that the CLI uses it too.
 * Keys are read on every call, never kept: a key destroyed by another process (the CLI's `users erase`) no longer
 * opens anything here from that moment. (People keeps what it opened only while `keysVersion` holds.)
 */
export class PersonalData {
  constructor(readonly keys: KeyStore) {}

  /** Seals texts with the subject's key, creating the key when the subject has none yet. */
  async seal<K extends string>(subject: string, texts: Record<K, string>): Promise<Record<K, Sealed>> {
    const key = await this.keys.keyFor(subject);
    const sealed = {} as Record<K, Sealed>;
    for (const name of Object.keys(texts) as K[]) sealed[name] = seal(key, subject, texts[name]);
    return sealed;
  }

  /**
   * Opens many values with one read of the key store. Clear text (recorded before sealing) comes back as it is; a
   * sealed value whose key is gone (its person was erased), or that does not open with the key there now, is
   * undefined: it reads as erased. So is a value that is absent.
   */
  async reveal(values: readonly (PersonalText | null | undefined)[]): Promise<(string | undefined)[]> {
    const subjects = new Set<string>();
    for (const value of values) if (isSealed(value)) subjects.add(value.subject);
    const keys = subjects.size > 0 ? await this.keys.getMany([...subjects]) : new Map<string, Buffer>();
    return values.map((value) => {
      if (typeof value === 'string') return value;
      if (!isSealed(value)) return undefined;
      const key = keys.get(value.subject);
      return key ? unseal(key, value) : undefined;
    });
  }

  /** The keys' version (see KeyStore.version): what was opened while it holds may be kept; undefined: nothing. */
  keysVersion(): string | undefined {
    return this.keys.version();
  }

  /** One value (see `reveal`). */
  async revealOne(value: PersonalText | null | undefined): Promise<string | undefined> {
    return (await this.reveal([value]))[0];
  }
}
