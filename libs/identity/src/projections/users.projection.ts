import { type Projection } from '@app/kernel';
import { upcast } from '../application/personal-data/upcaster';
import { USERS, type UserDoc } from '../application/read-models';
import { type UserCreated } from '../domain';

/**
 * Users, their personal data sealed as the events hold it (`People` opens it). An erased user keeps only their
 * id, creation time and `erased`: the sealed values go too (a clear one, from before sealing, with them).
 */
export const usersProjection: Projection<UserDoc> = {
  name: 'users',
  version: 2,
  collection: USERS,
  handles: ['UserCreated', 'UserErased'],
  idOf: (event) => String(event.data.userId),
  evolve(doc, recorded) {
    const event = upcast(recorded);
    if (event.type === 'UserErased') {
      return { id: String(event.data.userId), createdAt: doc?.createdAt ?? '', revision: event.revision, erased: true };
    }
    const data = event.data as UserCreated['data'];
    return {
      id: data.userId,
      email: data.email,
      displayName: data.displayName,
      createdAt: data.createdAt,
      revision: event.revision,
    };
  },
};
