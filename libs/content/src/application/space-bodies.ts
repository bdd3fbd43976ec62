import { Inject, Injectable } from '@nestjs/common';
import { KeptBodies, PUBLIC_URLS, type PublicUrls } from '@app/kernel';
import { type RoleOrGuest } from '@app/kernel/domain';
import { type SpaceBody, presentSpace } from './presenters';
import { type SpaceDoc } from './read-models';
import { type SpaceActivityCounts } from './space-activity';

/**
 * Space bodies kept per document, role and activity counters (see KeptBodies), shared by the GET of a space and
 * the list of spaces: each is presented and serialised once until the space, the role or a counter changes.
 */
@Injectable()
export class SpaceBodies {
  private readonly kept = new KeptBodies<SpaceDoc, SpaceBody>();

  constructor(@Inject(PUBLIC_URLS) private readonly urls: PublicUrls) {}

  of(space: SpaceDoc, role: RoleOrGuest, counts: SpaceActivityCounts | undefined): SpaceBody {
    const variant = counts
      ? `${role}:${counts.comments}:${counts.changeRequests}:${counts.changeRequestsOpen}:${counts.changeRequestsDraft}`
      : `${role}`;
    return this.kept.of(space, variant, () => presentSpace(space, role, this.urls, counts));
  }
}
