import { Inject, Optional } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { PUBLIC_URLS, type PublicUrls } from '@app/kernel';
import { ContentAccess } from '../content-access';
import { type SpaceBody, presentSpace } from '../presenters';
import { SPACE_ACTIVITY, type SpaceActivity, activityOf } from '../space-activity';

export interface SpaceView {
  body: SpaceBody;
  version: number;
}

export class GetSpaceQuery extends Query<SpaceView> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
  ) {
    super();
  }
}

/** A space; a deleted one only for those who may administer it (they see its `deletedAt`). */
@QueryHandler(GetSpaceQuery)
export class GetSpaceHandler implements IQueryHandler<GetSpaceQuery> {
  constructor(
    private readonly access: ContentAccess,
    @Inject(PUBLIC_URLS) private readonly urls: PublicUrls,
    @Optional() @Inject(SPACE_ACTIVITY) private readonly activity?: SpaceActivity,
  ) {}

  async execute({ spaceId, userId }: GetSpaceQuery): Promise<SpaceView> {
    const { space, role } = await this.access.requireSpace(spaceId, userId, 'read', 'read it', 'visible');
    const counts = await activityOf(this.activity, [spaceId]);
    return { body: presentSpace(space, role, this.urls, counts.get(spaceId)), version: space.version };
  }
}
