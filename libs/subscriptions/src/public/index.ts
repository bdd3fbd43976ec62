export { FEED_STREAM_OPTIONS, FeedStreams, type FeedStreamOptions } from '../application/read-feed/event-stream';
