import { apiTokensProjection, tokenHashesProjection } from './api-tokens.projection';
import { invitesProjection } from './invites.projection';
import { membersProjection } from './members.projection';
import { organizationsProjection } from './organizations.projection';
import { usersProjection } from './users.projection';

export {
  apiTokensProjection,
  tokenHashesProjection,
  invitesProjection,
  membersProjection,
  organizationsProjection,
  usersProjection,
};

export const identityProjections = [
  usersProjection,
  apiTokensProjection,
  tokenHashesProjection,
  organizationsProjection,
  membersProjection,
  invitesProjection,
];
