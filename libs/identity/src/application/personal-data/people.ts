import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '@app/kernel';
import { USERS, type UserDoc } from '../read-models';
import { PersonalData } from './sealing';

/** How an erased person is named wherever they appear (authors, reviewers, grants, members). */
export const ERASED_NAME = 'Erased user';
/** How an id that names no user is shown. */
export const UNKNOWN_NAME = 'Unknown user';

/** A user as answers show them, their personal data opened. */
export interface Person {
  id: string;
  displayName: string;
  /** Absent once the person is erased. */
  email?: string;
  status: 'active' | 'erased' | 'unknown';
}

/**
 * Users with their personal data opened: the `users` read model keeps it sealed, as the events do, and this opens
 * it with the key store on every read. A user whose key is gone, or whose record says they were erased, reads as
 * erased: named "Erased user", without email.
 */
@Injectable()
export class People {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly personal: PersonalData,
  ) {}

  /** The users with these ids (one read of each store); an id with no user is an unknown person. */
  async byIds(ids: Iterable<string>): Promise<Map<string, Person>> {
    const wanted = [...new Set(ids)];
    const docs = wanted.length > 0 ? await this.store.getMany<UserDoc>(USERS, wanted) : [];
    const opened = await this.personal.reveal(docs.flatMap((doc) => [doc.displayName, doc.email]));
    const people = new Map<string, Person>();
    docs.forEach((doc, index) => {
      const displayName = opened[2 * index];
      const email = opened[2 * index + 1];
      if (doc.erased || displayName === undefined) {
        people.set(doc.id, { id: doc.id, displayName: ERASED_NAME, status: 'erased' });
      } else {
        people.set(doc.id, { id: doc.id, displayName, ...(email !== undefined ? { email } : {}), status: 'active' });
      }
    });
    for (const id of wanted) {
      if (!people.has(id)) people.set(id, { id, displayName: UNKNOWN_NAME, status: 'unknown' });
    }
    return people;
  }

  async byId(id: string): Promise<Person> {
    return (await this.byIds([id])).get(id)!;
  }
}
