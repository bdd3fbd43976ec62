import { type Projection, type RecordedEvent } from '@app/kernel';
import { USERS, type UserDoc } from '../application/read-models';
import { type UserCreated } from '../domain';

export const usersProjection: Projection<UserDoc> = {
  name: 'users',
  version: 1,
  collection: USERS,
  indexes: [{ fields: [['email', 1]] }],
  handles: ['UserCreated'],
  idOf: (event) => String(event.data.userId),
  evolve(_doc, event: RecordedEvent) {
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
