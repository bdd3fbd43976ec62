import { collectionsProjection } from './collections.projection';
import { revisionLinksProjection } from './revision-links.projection';
import { revisionsProjection } from './revisions.projection';
import { spacesProjection } from './spaces.projection';

export { collectionsProjection, revisionsProjection, spacesProjection, revisionLinksProjection };

export const contentProjections = [
  collectionsProjection,
  spacesProjection,
  revisionsProjection,
  revisionLinksProjection,
];
