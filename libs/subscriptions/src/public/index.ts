export { FEED_STREAM_OPTIONS, type FeedStreamOptions } from '../application/read-feed/event-stream';
