import { Inject, Injectable, Optional } from '@nestjs/common';
import { PUBLIC_URLS, type PublicUrls, READ_STORE, type ReadStore } from '@app/kernel';
import { type Role, type RoleOrGuest, atLeast } from '@app/kernel/domain';
import { type ContentInvites, type InviteTarget } from '@app/identity';
import { ContentAccess } from '../content-access';
import { presentCollection, presentSpace } from '../presenters';
import { COLLECTIONS, type CollectionDoc, SPACES, type SpaceDoc } from '../read-models';
import { SPACE_ACTIVITY, type SpaceActivity, activityOf } from '../space-activity';
import { GrantEndpoints } from './grant-endpoints';

/** Identity's CONTENT_INVITES port: invite links to a space or collection end in a grant here. */
@Injectable()
export class ContentInvitesAdapter implements ContentInvites {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    private readonly access: ContentAccess,
    private readonly grants: GrantEndpoints,
    @Optional() @Inject(SPACE_ACTIVITY) private readonly activity?: SpaceActivity,
  ) {}

  private async find(target: InviteTarget): Promise<SpaceDoc | CollectionDoc | undefined> {
    if (target.kind === 'space') {
      const space = await this.store.get<SpaceDoc>(SPACES, target.id);
      return space && !space.deleted ? space : undefined;
    }
    return (await this.store.get<CollectionDoc>(COLLECTIONS, target.id)) ?? undefined;
  }

  private async roleOf(object: SpaceDoc | CollectionDoc, userId: string): Promise<RoleOrGuest> {
    const viewer = await this.access.viewerOrNull(object.organizationId, userId);
    return viewer ? this.access.roleOn(viewer, object) : null;
  }

  async organizationOf(target: InviteTarget) {
    return (await this.find(target))?.organizationId;
  }

  async view(target: InviteTarget, userId: string) {
    const object = await this.find(target);
    if (!object) return undefined;
    const role = await this.roleOf(object, userId);
    if (target.kind === 'collection')
      return { body: presentCollection(object as CollectionDoc, role, this.urls), role };
    const counts = await activityOf(this.activity, [object.id]);
    return { body: presentSpace(object as SpaceDoc, role, this.urls, counts.get(object.id)), role };
  }

  async grant(
    actor: { userId: string; requestId?: string },
    organizationId: string,
    target: InviteTarget,
    userId: string,
    level: Role,
  ) {
    const object = await this.find(target);
    if (!object || object.organizationId !== organizationId) return;
    // Accepting never lowers what someone already has there.
    if (atLeast(await this.roleOf(object, userId), level)) return;
    await this.grants.grantChecked(actor, organizationId, target, { kind: 'user', id: userId }, level);
  }
}
