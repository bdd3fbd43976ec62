import { Inject, Injectable } from '@nestjs/common';
import { PUBLIC_URLS, type PublicUrls } from '@app/kernel';
import { People } from '../application/personal-data/people';
import { presentUser } from '../application/presenters';

export interface UserBody {
  object: 'user';
  id: string;
  displayName: string;
  email?: string;
  urls: { location: string };
}

/**
 * Users as other contexts show them (authors, reviewers, reactors, grantees), in the spec's User shape, their
 * personal data opened at each read: an erased person is "Erased user" without email wherever they appear, and
 * no other context keeps a copy of a name or an address.
 */
@Injectable()
export class UserDirectory {
  constructor(
    private readonly people: People,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
  ) {}

  /** The users with these ids; an id whose user is unknown is shown as an unknown user rather than dropped. */
  async users(ids: Iterable<string>): Promise<Map<string, UserBody>> {
    const out = new Map<string, UserBody>();
    for (const [id, person] of await this.people.byIds(ids)) out.set(id, presentUser(person, this.urls));
    return out;
  }
}
