import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { READ_STORE, type ReadStore } from '@app/kernel';
import { type ChangeRequestLookup, type SpaceActivity, type SpaceActivityCounts } from '@app/content';
import { GetChangeRequestQuery } from './get-change-request/get-change-request.query';
import { SPACE_ACTIVITY_COUNTS, type SpaceActivityDoc } from './read-models';

/** The review context's counters of a space, for the content context's Space shape. */
@Injectable()
export class ReviewSpaceActivity implements SpaceActivity {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async countsFor(spaceIds: readonly string[]): Promise<Map<string, SpaceActivityCounts>> {
    const docs = await this.store.getMany<SpaceActivityDoc>(SPACE_ACTIVITY_COUNTS, spaceIds);
    return new Map(
      docs.map((doc) => [
        doc.id,
        {
          comments: doc.comments,
          changeRequests: doc.changeRequests,
          changeRequestsOpen: doc.changeRequestsOpen,
          changeRequestsDraft: doc.changeRequestsDraft,
        },
      ]),
    );
  }
}

/** The change request a merge revision came from, for the content context's Revision shape. */
@Injectable()
export class ReviewChangeRequestLookup implements ChangeRequestLookup {
  constructor(private readonly queries: QueryBus) {}

  changeRequest(spaceId: string, changeRequestId: string, userId: string): Promise<unknown> {
    return this.queries.execute(new GetChangeRequestQuery(spaceId, changeRequestId, userId));
  }
}
