import { sitesProjection } from './sites.projection';

export { sitesProjection };

export const publishingProjections = [sitesProjection];
