import { changeRequestsProjection } from './change-requests.projection';
import { spaceActivityProjection } from './space-activity.projection';
import { commentRepliesProjection, commentsProjection } from './comments.projection';

export { changeRequestsProjection, spaceActivityProjection, commentsProjection, commentRepliesProjection };

export const reviewProjections = [
  changeRequestsProjection,
  spaceActivityProjection,
  commentsProjection,
  commentRepliesProjection,
];
