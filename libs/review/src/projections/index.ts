import { changeRequestsProjection } from './change-requests.projection';
import { spaceActivityProjection } from './space-activity.projection';

export { changeRequestsProjection, spaceActivityProjection };

export const reviewProjections = [changeRequestsProjection, spaceActivityProjection];
