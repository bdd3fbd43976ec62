import { Inject, Injectable } from '@nestjs/common';
import { PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { presentUser } from '../application/presenters';
import { USERS, type UserDoc } from '../application/read-models';

export interface UserBody {
  object: 'user';
  id: string;
  displayName: string;
  email?: string;
  urls: { location: string };
}

/** Users as other contexts show them (authors, reviewers, reactors), in the spec's User shape. */
@Injectable()
export class UserDirectory {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  /** The users with these ids; an id whose user is gone is shown as an unknown user rather than dropped. */
  async users(ids: Iterable<string>): Promise<Map<string, UserBody>> {
    const wanted = [...new Set(ids)];
    const found = wanted.length > 0 ? await this.store.getMany<UserDoc>(USERS, wanted) : [];
    const out = new Map<string, UserBody>();
    for (const user of found) out.set(user.id, presentUser(user, this.urls));
    for (const id of wanted) {
      if (!out.has(id)) {
        out.set(id, {
          object: 'user',
          id,
          displayName: 'Unknown user',
          urls: { location: `${this.urls.api}/users/${id}` },
        });
      }
    }
    return out;
  }
}
