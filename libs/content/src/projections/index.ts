import { collectionsProjection } from './collections.projection';
import { revisionsProjection } from './revisions.projection';
import { spacesProjection } from './spaces.projection';

export { collectionsProjection, revisionsProjection, spacesProjection };

export const contentProjections = [collectionsProjection, spacesProjection, revisionsProjection];
