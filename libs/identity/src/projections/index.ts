import { apiTokensProjection, tokenHashesProjection } from './api-tokens.projection';
import { invitesProjection } from './invites.projection';
import { membersProjection } from './members.projection';
import { organizationsProjection } from './organizations.projection';
import { usersProjection } from './users.projection';
import { teamMembersProjection, teamsProjection } from './teams.projection';
import { inviteLinksProjection } from './invite-links.projection';

export {
  apiTokensProjection,
  tokenHashesProjection,
  invitesProjection,
  membersProjection,
  organizationsProjection,
  usersProjection,
  teamsProjection,
  teamMembersProjection,
  inviteLinksProjection,
};

export const identityProjections = [
  usersProjection,
  apiTokensProjection,
  tokenHashesProjection,
  organizationsProjection,
  membersProjection,
  invitesProjection,
  teamsProjection,
  teamMembersProjection,
  inviteLinksProjection,
];
