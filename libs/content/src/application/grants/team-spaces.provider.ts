import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '@app/kernel';
import { type TeamSpaces } from '@app/identity';
import { GRANTEE_GRANTS, type GranteeGrantsDoc, granteeGrantsDocId } from '../read-models';

/** Identity's TEAM_SPACES port: a team's `spaces` count is the number of spaces shared with it directly. */
@Injectable()
export class GrantedTeamSpaces implements TeamSpaces {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  async spaceCounts(organizationId: string, teamIds: readonly string[]): Promise<Map<string, number>> {
    const docs = await this.store.getMany<GranteeGrantsDoc>(
      GRANTEE_GRANTS,
      teamIds.map((teamId) => granteeGrantsDocId(organizationId, 'team', teamId)),
    );
    const counts = new Map<string, number>();
    for (const doc of docs) counts.set(doc.id.slice(`${organizationId}:team:`.length), Object.keys(doc.spaces).length);
    return counts;
  }
}
