import { Inject, Injectable } from '@nestjs/common';
import { Forbidden, NotFound, READ_STORE, type ReadStore } from '@app/kernel';
import { type Role, type RoleOrGuest, atLeast } from '@app/kernel/domain';
import { ContentAccess, type SpaceDoc } from '@app/content';
import { CHANGE_REQUESTS, type ChangeRequestDoc } from './read-models';

export interface ChangeRequestAccess {
  space: SpaceDoc;
  role: RoleOrGuest;
  request: ChangeRequestDoc;
}

/**
 * Who may do what on change requests: the caller's role on their space. A change request of a space the caller
 * cannot read, or of another space, is answered as not found, exactly like one that does not exist.
 */
@Injectable()
export class ReviewAccess {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly content: ContentAccess,
  ) {}

  requireSpace(spaceId: string, userId: string, required: Role, action: string) {
    return this.content.requireSpace(spaceId, userId, required, action);
  }

  /** A change request by id or by its number in the space, the caller needing `required` on the space. */
  async requireChangeRequest(
    spaceId: string,
    idOrNumber: string,
    userId: string,
    required: Role,
    action: string,
  ): Promise<ChangeRequestAccess> {
    const { space, role } = await this.content.requireSpace(spaceId, userId, 'read', 'read its change requests');
    const request = await this.find(spaceId, idOrNumber);
    if (!request) throw new NotFound(`Change request ${idOrNumber} not found`);
    if (!atLeast(role, required)) {
      throw new Forbidden(`You need the ${required} role on this space to ${action}`);
    }
    return { space, role, request };
  }

  async find(spaceId: string, idOrNumber: string): Promise<ChangeRequestDoc | null> {
    const byId = await this.store.get<ChangeRequestDoc>(CHANGE_REQUESTS, idOrNumber);
    if (byId) return byId.spaceId === spaceId ? byId : null;
    if (!/^[1-9]\d{0,9}$/.test(idOrNumber)) return null;
    const found = await this.store.find<ChangeRequestDoc>(CHANGE_REQUESTS, {
      filter: { spaceId, number: Number(idOrNumber) },
      limit: 1,
    });
    return found.items[0] ?? null;
  }
}
