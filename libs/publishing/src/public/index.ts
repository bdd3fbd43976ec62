export { SITES_URL } from '../application/site-views';
export { SITES, type SiteDoc, PUBLISHING_READ_MODELS } from '../application/read-models';
export { siteStream, type SiteEvent } from '../domain';
export { publishingPublicEvents } from './public-events';
