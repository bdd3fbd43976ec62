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
 * it with the key store. A user whose key is gone, or whose record says they were erased, reads as erased: named
 * "Erased user", without email.
 *
 * What was opened is kept per user document while the key store's version holds (no key created or destroyed
 * since, by any process): a changed user is a new document, and an erasure changes the version, so nothing kept
 * outlives the key it was opened with. Opening the author of a change request was a quarter of its GET.
 */
@Injectable()
export class People {
  private readonly kept = new WeakMap<UserDoc, { keys: string; person: Person }>();

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly personal: PersonalData,
  ) {}

  /** The users with these ids (one read of each store); an id with no user is an unknown person. */
  async byIds(ids: Iterable<string>): Promise<Map<string, Person>> {
    const wanted = [...new Set(ids)];
    // read before the documents and the keys: a change after it makes what is kept now stale at the next read
    const keys = this.personal.keysVersion();
    const docs = wanted.length > 0 ? await this.store.getMany<UserDoc>(USERS, wanted) : [];
    const found: (Person | undefined)[] = docs.map((doc) => {
      const kept = keys === undefined ? undefined : this.kept.get(doc);
      return kept !== undefined && kept.keys === keys ? kept.person : undefined;
    });
    const closed = docs.flatMap((doc, index) => (found[index] === undefined ? [index] : []));
    if (closed.length > 0) {
      const opened = await this.personal.reveal(
        closed.flatMap((index) => [docs[index].displayName, docs[index].email]),
      );
      closed.forEach((index, at) => {
        const person = open(docs[index], opened[2 * at], opened[2 * at + 1]);
        found[index] = person;
        if (keys !== undefined) this.kept.set(docs[index], { keys, person });
      });
    }
    const people = new Map<string, Person>();
    docs.forEach((doc, index) => people.set(doc.id, found[index]!));
    for (const id of wanted) {
      if (!people.has(id)) people.set(id, { id, displayName: UNKNOWN_NAME, status: 'unknown' });
    }
    return people;
  }

  async byId(id: string): Promise<Person> {
    return (await this.byIds([id])).get(id)!;
  }
}

/** A user as answers show them (frozen: a kept person is shared by every answer). */
function open(doc: UserDoc, displayName: string | undefined, email: string | undefined): Person {
  if (doc.erased || displayName === undefined) {
    return Object.freeze({ id: doc.id, displayName: ERASED_NAME, status: 'erased' as const });
  }
  return Object.freeze({
    id: doc.id,
    displayName,
    ...(email !== undefined ? { email } : {}),
    status: 'active' as const,
  });
}
