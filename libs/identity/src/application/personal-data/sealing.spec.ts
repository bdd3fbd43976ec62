import { randomBytes } from 'node:crypto';
import { type KeyStore } from '@app/kernel';
import { PersonalData, addressSubject, isSealed, seal, unseal, userSubject } from './sealing';

/** A key store in memory, enough for these tests (the adapters have their own contract suite). */
function memoryKeys(): KeyStore & { reads: number } {
  const keys = new Map<string, Buffer>();
  let writes = 0;
  return {
    reads: 0,
    keyFor(subject) {
      if (!keys.has(subject)) {
        keys.set(subject, randomBytes(32));
        writes++;
      }
      return Promise.resolve(keys.get(subject)!);
    },
    get(subject) {
      return Promise.resolve(keys.get(subject));
    },
    getMany(subjects) {
      this.reads++;
      return Promise.resolve(new Map(subjects.filter((s) => keys.has(s)).map((s) => [s, keys.get(s)!])));
    },
    destroy(subject) {
      keys.delete(subject);
      writes++;
      return Promise.resolve();
    },
    version: () => String(writes),
    ping: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

describe('sealing personal data', () => {
  const key = randomBytes(32);

  it('seals text into a versioned envelope that names its key and does not contain the text', () => {
    const sealed = seal(key, 'user:u1', 'ada@example.com');
    expect(sealed).toEqual({ enc: expect.stringMatching(/^v1:[A-Za-z0-9+/]+=*$/), subject: 'user:u1' });
    expect(JSON.stringify(sealed)).not.toContain('ada');
    expect(isSealed(sealed)).toBe(true);
    expect(unseal(key, sealed)).toBe('ada@example.com');
  });

  it('uses a fresh IV each time, so equal texts do not look equal', () => {
    expect(seal(key, 'user:u1', 'Ada').enc).not.toBe(seal(key, 'user:u1', 'Ada').enc);
  });

  it('opens nothing with another key, under another subject, or once altered', () => {
    const sealed = seal(key, 'user:u1', 'Ada Lovelace');
    expect(unseal(randomBytes(32), sealed)).toBeUndefined();
    expect(unseal(key, { ...sealed, subject: 'user:u2' })).toBeUndefined();
    const bytes = Buffer.from(sealed.enc.slice(3), 'base64');
    bytes[14] ^= 1;
    expect(unseal(key, { ...sealed, enc: `v1:${bytes.toString('base64')}` })).toBeUndefined();
    expect(unseal(key, { ...sealed, enc: 'v2:AAAA' })).toBeUndefined();
    expect(unseal(key, { ...sealed, enc: 'v1:AAAA' })).toBeUndefined();
  });

  it('keeps unicode intact', () => {
    expect(unseal(key, seal(key, 'user:u1', 'Zoë 🦊 Ünïcødé'))).toBe('Zoë 🦊 Ünïcødé');
  });
});

describe('PersonalData', () => {
  it('seals with the subject key (made on first use) and reveals many values with one key-store read', async () => {
    const keys = memoryKeys();
    const personal = new PersonalData(keys);
    const ada = await personal.seal(userSubject('u1'), { email: 'ada@example.com', displayName: 'Ada' });
    const invited = await personal.seal(addressSubject('k1'), { email: 'bob@example.com' });
    const opened = await personal.reveal([ada.displayName, ada.email, invited.email, 'legacy clear', undefined, null]);
    expect(opened).toEqual(['Ada', 'ada@example.com', 'bob@example.com', 'legacy clear', undefined, undefined]);
    expect(keys.reads).toBe(1);
  });

  it('reads a value whose key was destroyed as erased (undefined), and a value sealed with an older key too', async () => {
    const keys = memoryKeys();
    const personal = new PersonalData(keys);
    const before = await personal.seal(addressSubject('k1'), { email: 'bob@example.com' });
    await keys.destroy(addressSubject('k1'));
    expect(await personal.revealOne(before.email)).toBeUndefined();
    // the subject gets a new key later (the address is invited again): the old value still does not open
    const after = await personal.seal(addressSubject('k1'), { email: 'bob@example.com' });
    expect(await personal.reveal([before.email, after.email])).toEqual([undefined, 'bob@example.com']);
  });
});
