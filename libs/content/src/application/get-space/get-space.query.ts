import { Inject, Optional } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import {
  EVENT_STORE,
  type EventStore,
  NotFound,
  type PointInTime,
  READ_STORE,
  type ReadStore,
  requireDocumentAt,
} from '@app/kernel';
import { spaceStream } from '../../domain';
import { spacesProjection } from '../../projections/spaces.projection';
import { ContentAccess } from '../content-access';
import { type SpaceBody } from '../presenters';
import { SPACES, type SpaceDoc } from '../read-models';
import { SHARED_SPACES, type SharedSpaces } from '../shared-spaces';
import { SpaceBodies } from '../space-bodies';
import { SPACE_ACTIVITY, type SpaceActivity, activityOf } from '../space-activity';

export interface SpaceView {
  body: SpaceBody;
  version: number;
}

export class GetSpaceQuery extends Query<SpaceView> {
  constructor(
    readonly spaceId: string,
    readonly userId: string,
    /** A share key of a site showing the space: lets a caller without a role read it. */
    readonly shareKey?: string,
    /** Answer the space as it was then (with today's access check). */
    readonly at?: PointInTime,
  ) {
    super();
  }
}

/** A space; a deleted one only for those who may administer it (they see its `deletedAt`). */
@QueryHandler(GetSpaceQuery)
export class GetSpaceHandler implements IQueryHandler<GetSpaceQuery> {
  constructor(
    private readonly access: ContentAccess,
    private readonly bodies: SpaceBodies,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Optional() @Inject(SPACE_ACTIVITY) private readonly activity?: SpaceActivity,
    @Optional() @Inject(SHARED_SPACES) private readonly shared?: SharedSpaces,
  ) {}

  async execute({ spaceId, userId, shareKey, at }: GetSpaceQuery): Promise<SpaceView> {
    const current = await this.access
      .requireSpace(spaceId, userId, 'read', 'read it', 'visible')
      .catch((error: unknown) => this.throughShareKey(error, spaceId, shareKey));
    const space = at
      ? await requireDocumentAt(this.events, spacesProjection, spaceStream(spaceId), spaceId, at, `space ${spaceId}`)
      : current.space;
    const counts = await activityOf(this.activity, [spaceId]);
    return { body: this.bodies.of(space, current.role, counts.get(spaceId)), version: space.version };
  }

  /** A caller who cannot read the space may still hold a key of a shared site showing it; read-only, no role. */
  private async throughShareKey(refusal: unknown, spaceId: string, shareKey: string | undefined) {
    if (shareKey === undefined || !this.shared || !(refusal instanceof NotFound)) throw refusal;
    const space = await this.store.get<SpaceDoc>(SPACES, spaceId);
    if (!space || space.deleted || !(await this.shared.spaceSharedBy(spaceId, shareKey))) throw refusal;
    return { space, role: null };
  }
}
