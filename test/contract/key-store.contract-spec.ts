import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEY_BYTES, type KeyStore } from '@app/kernel';
import { MongoKeyStore, SqliteKeyStore } from '@app/key-store';

interface Adapter {
  /** A store; `again` opens a second one on the same data (another connection, as another process would). */
  open(again?: boolean): Promise<KeyStore>;
  cleanUp?(): Promise<void>;
}

/**
 * The key-store contract: every adapter passes it. SQLite always runs; MongoDB runs when MONGODB_URL is set
 * (for example mongodb://localhost:27017/quire_test), and says why it skips otherwise.
 */
function contract(name: string, adapter: Adapter) {
  describe(name, () => {
    let keys: KeyStore;
    const subject = () => `user:${randomBytes(8).toString('hex')}`;

    beforeAll(async () => {
      keys = await adapter.open();
    });
    afterAll(async () => {
      await keys.close();
      await adapter.cleanUp?.();
    });

    it('makes a random 256-bit key on first use and gives the same one afterwards', async () => {
      const ada = subject();
      expect(await keys.get(ada)).toBeUndefined();
      const key = await keys.keyFor(ada);
      expect(Buffer.isBuffer(key)).toBe(true);
      expect(key).toHaveLength(KEY_BYTES);
      expect(key.equals(Buffer.alloc(KEY_BYTES))).toBe(false);
      expect((await keys.keyFor(ada)).equals(key)).toBe(true);
      expect((await keys.get(ada))?.equals(key)).toBe(true);
    });

    it('gives each subject its own key', async () => {
      const [a, b] = [subject(), subject()];
      expect((await keys.keyFor(a)).equals(await keys.keyFor(b))).toBe(false);
    });

    it('gives every concurrent caller the same key', async () => {
      const ada = subject();
      const got = await Promise.all(Array.from({ length: 20 }, () => keys.keyFor(ada)));
      for (const key of got) expect(key.equals(got[0])).toBe(true);
    });

    it('reads many keys at once, leaving out subjects without one', async () => {
      const [a, b, none] = [subject(), subject(), subject()];
      const keyA = await keys.keyFor(a);
      const keyB = await keys.keyFor(b);
      const found = await keys.getMany([a, b, none, a]);
      expect([...found.keys()].sort()).toEqual([a, b].sort());
      expect(found.get(a)?.equals(keyA)).toBe(true);
      expect(found.get(b)?.equals(keyB)).toBe(true);
      expect((await keys.getMany([])).size).toBe(0);
    });

    it('destroys a key for good: it is gone, and a new one is different', async () => {
      const [ada, bob] = [subject(), subject()];
      const key = await keys.keyFor(ada);
      const other = await keys.keyFor(bob);
      await keys.destroy(ada);
      expect(await keys.get(ada)).toBeUndefined();
      expect((await keys.getMany([ada, bob])).has(ada)).toBe(false);
      expect((await keys.get(bob))?.equals(other)).toBe(true);
      const renewed = await keys.keyFor(ada);
      expect(renewed.equals(key)).toBe(false);
      await keys.destroy(ada);
      await keys.destroy(ada);
      await keys.destroy(subject());
    });

    it('shares keys with another connection, and a destruction at once (nothing is cached)', async () => {
      const other = await adapter.open(true);
      try {
        const ada = subject();
        const key = await keys.keyFor(ada);
        expect((await other.get(ada))?.equals(key)).toBe(true);
        expect((await other.keyFor(ada)).equals(key)).toBe(true);
        await other.destroy(ada);
        expect(await keys.get(ada)).toBeUndefined();
      } finally {
        await other.close();
      }
    });

    it('names the keys as they are: a new version after a key is made or destroyed, here or by another connection', async () => {
      const other = await adapter.open(true);
      try {
        const ada = subject();
        const first = keys.version();
        if (first === undefined) {
          // an adapter that cannot tell says so every time, and nothing opened is kept with it
          await keys.keyFor(ada);
          expect(keys.version()).toBeUndefined();
          return;
        }
        expect(keys.version()).toBe(first);
        await keys.get(ada);
        expect(keys.version()).toBe(first);
        await keys.keyFor(ada);
        const made = keys.version();
        expect(made).not.toBe(first);
        await keys.keyFor(ada);
        expect(keys.version()).toBe(made);
        await other.destroy(ada);
        const destroyedThere = keys.version();
        expect(destroyedThere).not.toBe(made);
        await other.keyFor(ada);
        const madeThere = keys.version();
        expect(madeThere).not.toBe(destroyedThere);
        await keys.destroy(ada);
        expect(keys.version()).not.toBe(madeThere);
      } finally {
        await other.close();
      }
    });

    it('refuses an empty or over-long subject', async () => {
      await expect(keys.keyFor('')).rejects.toThrow(/subject/);
      await expect(keys.get('x'.repeat(201))).rejects.toThrow(/subject/);
    });

    it('answers a ping', async () => {
      await expect(keys.ping()).resolves.toBeUndefined();
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'quire-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

contract('SQLite key store', {
  open: () => Promise.resolve(new SqliteKeyStore({ file: join(dir, 'keys.sqlite') })),
});

describe('SQLite key store file', () => {
  it('is readable by this user only', async () => {
    const file = join(dir, 'private', 'keys.sqlite');
    const keys = new SqliteKeyStore({ file });
    await keys.keyFor('user:mode');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'private')).mode & 0o777).toBe(0o700);
    await keys.close();
  });

  it('keeps no byte of a destroyed key in any of its files', async () => {
    const folder = join(dir, 'shredding');
    const file = join(folder, 'keys.sqlite');
    const keys = new SqliteKeyStore({ file });
    const made = new Map<string, Buffer>();
    for (let i = 0; i < 200; i++) made.set(`user:${i}`, await keys.keyFor(`user:${i}`));
    const destroyed = [...made.keys()].filter((_, i) => i % 3 === 0);
    for (const one of destroyed) await keys.destroy(one);
    const kept = [...made.keys()].filter((one) => !destroyed.includes(one));
    const files = () => readdirSync(folder).map((name) => readFileSync(join(folder, name)));
    const inFiles = (key: Buffer) => files().some((bytes) => bytes.includes(key));
    // while the store is open, and after it is closed
    for (const one of destroyed) expect(inFiles(made.get(one)!)).toBe(false);
    for (const one of kept.slice(0, 5)) expect(inFiles(made.get(one)!)).toBe(true);
    await keys.close();
    for (const one of destroyed) expect(inFiles(made.get(one)!)).toBe(false);
    expect(readdirSync(folder)).toEqual(['keys.sqlite']);
  });
});

const mongoUrl = process.env.MONGODB_URL;
if (mongoUrl) {
  const collection = `personal_keys_test_${randomBytes(4).toString('hex')}`;
  contract('MongoDB key store', {
    async open() {
      const keys = new MongoKeyStore({ url: mongoUrl, collection });
      await keys.ping();
      return keys;
    },
    async cleanUp() {
      const { MongoClient } = await import('mongodb');
      const client = await MongoClient.connect(mongoUrl);
      try {
        await client.db().collection(collection).drop();
      } finally {
        await client.close();
      }
    },
  });
} else {
  describe.skip('MongoDB key store (skipped: MONGODB_URL is not set; no MongoDB server can run here)', () => {
    it('passes the same contract when MONGODB_URL points at a server', () => undefined);
  });
}
