export { CHANGE_REQUESTS, type ChangeRequestDoc, REVIEW_READ_MODELS } from '../application/read-models';
export { type ChangeRequestStatus, changeRequestsStream } from '../domain';
export { reviewPublicEvents } from './public-events';
