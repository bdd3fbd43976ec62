import { collectionsProjection } from './collections.projection';
import { revisionLinksProjection } from './revision-links.projection';
import { revisionsProjection } from './revisions.projection';
import { spacesProjection } from './spaces.projection';
import { granteeGrantsProjection, grantsProjection } from './grants.projection';

export {
  collectionsProjection,
  revisionsProjection,
  spacesProjection,
  revisionLinksProjection,
  grantsProjection,
  granteeGrantsProjection,
};

export const contentProjections = [
  collectionsProjection,
  spacesProjection,
  revisionsProjection,
  revisionLinksProjection,
  grantsProjection,
  granteeGrantsProjection,
];
