import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteKeyStore } from '@app/key-store';
import { SqliteReadStore } from '@app/read-store';
import { USERS } from '../read-models';
import { ERASED_NAME, People } from './people';
import { PersonalData, userSubject } from './sealing';

describe('People: users with their personal data opened', () => {
  let dir: string;
  let reads: SqliteReadStore;
  let keys: SqliteKeyStore;
  let people: People;
  let personal: PersonalData;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-people-'));
    reads = new SqliteReadStore({ file: ':memory:' });
    keys = new SqliteKeyStore({ file: join(dir, 'keys.sqlite') });
    personal = new PersonalData(keys);
    people = new People(reads, personal);
    const sealed = await personal.seal(userSubject('ada'), { displayName: 'Ada', email: 'ada@example.com' });
    await reads.write([
      { kind: 'put', collection: USERS, doc: { id: 'ada', ...sealed, createdAt: 'now', revision: 0 }, position: 1n },
    ]);
  });

  afterEach(async () => {
    await reads.close();
    await keys.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens a user once while nothing changes, and shows them erased as soon as another process destroys the key', async () => {
    const ada = await people.byId('ada');
    expect(ada).toEqual({ id: 'ada', displayName: 'Ada', email: 'ada@example.com', status: 'active' });
    // the second read answers what was opened the first time
    expect(await people.byId('ada')).toBe(ada);
    expect(Object.isFrozen(ada)).toBe(true);
    // the CLI's `users erase` destroys the key from its own process; its user document has not changed yet
    const cli = new SqliteKeyStore({ file: join(dir, 'keys.sqlite') });
    try {
      await cli.destroy(userSubject('ada'));
    } finally {
      await cli.close();
    }
    expect(await people.byId('ada')).toEqual({ id: 'ada', displayName: ERASED_NAME, status: 'erased' });
  });

  it('opens a changed user document again, and names an unknown id', async () => {
    expect((await people.byId('ada')).displayName).toBe('Ada');
    const renamed = await personal.seal(userSubject('ada'), { displayName: 'Ada L.' });
    await reads.write([
      {
        kind: 'put',
        collection: USERS,
        doc: { id: 'ada', displayName: renamed.displayName, createdAt: 'now', revision: 1 },
        position: 2n,
      },
    ]);
    const all = await people.byIds(['ada', 'nobody']);
    expect(all.get('ada')).toEqual({ id: 'ada', displayName: 'Ada L.', status: 'active' });
    expect(all.get('nobody')?.status).toBe('unknown');
  });
});
