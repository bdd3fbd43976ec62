import { type ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleDestroy, Optional } from '@nestjs/common';
import { type FastifyReply } from 'fastify';
import { type GlobalPosition, type PublicEvent, errorBody } from '@app/kernel';
import { TokenAuthenticator } from '@app/identity';
import { type FeedReader, OrganizationFeed } from './organization-feed';

export interface FeedStreamOptions {
  /** A comment line is sent after this long without anything else, so that proxies keep the stream open. */
  keepAliveMs: number;
  /** What a stream may leave in the socket's write buffer: it waits for the consumer to read before sending more. */
  maxBufferedBytes: number;
  /** How long a full write buffer may take to drain: a consumer that reads slower than that is disconnected. */
  drainTimeoutMs: number;
  /** How often the token and the caller's access are checked again. */
  recheckMs: number;
}

export const FEED_STREAM_OPTIONS = Symbol('FEED_STREAM_OPTIONS');

export const DEFAULT_FEED_STREAM_OPTIONS: FeedStreamOptions = {
  keepAliveMs: 15_000,
  maxBufferedBytes: 1024 * 1024,
  drainTimeoutMs: 10_000,
  recheckMs: 1000,
};

/** Events read from the store at once while a stream catches up. */
const STREAM_PAGE = 500;
/** How long a stream that ended with an error waits for the consumer to read its last message before closing. */
const CLOSE_GRACE_MS = 5000;

export interface StreamRequest {
  reader: FeedReader;
  /** The `Authorization` header the stream was opened with, checked again while it runs. */
  authorization: unknown;
  after: GlobalPosition;
  types?: readonly string[];
}

/**
 * The organization feed as Server-Sent Events: `id:` is each event's position, `event:` its type, `data:` the
 * event. Each open stream follows the public events as they are projected, checks about every second that its
 * token still works and its caller may still read the organization, and ends with an `event: error` message when
 * not, when the consumer falls too far behind, or when the service stops.
 */
@Injectable()
export class FeedStreams implements OnModuleDestroy {
  private readonly logger = new Logger('FeedStreams');
  private readonly open = new Set<FeedStream>();
  private readonly options: FeedStreamOptions;

  constructor(
    private readonly feed: OrganizationFeed,
    private readonly authenticator: TokenAuthenticator,
    @Optional() @Inject(FEED_STREAM_OPTIONS) options?: Partial<FeedStreamOptions>,
  ) {
    this.options = { ...DEFAULT_FEED_STREAM_OPTIONS, ...options };
  }

  get count(): number {
    return this.open.size;
  }

  /** Takes the response over from the framework and streams until the consumer leaves or the stream must end. */
  start(reply: FastifyReply, request: StreamRequest): void {
    void reply.hijack();
    const stream = new FeedStream(reply, request, this.feed, this.authenticator, this.options, this.logger);
    this.open.add(stream);
    void stream.run().finally(() => this.open.delete(stream));
  }

  /** Ends every open stream, so that the server can close (a stream never ends by itself). */
  onModuleDestroy(): void {
    for (const stream of this.open) stream.end(503, 'The service is stopping: reconnect with Last-Event-ID');
  }
}

class FeedStream {
  private readonly response: ServerResponse;
  private readonly stop = new AbortController();
  private ended = false;
  private reader: FeedReader;
  private lastWrite = Date.now();

  constructor(
    private readonly reply: FastifyReply,
    private readonly request: StreamRequest,
    private readonly feed: OrganizationFeed,
    private readonly authenticator: TokenAuthenticator,
    private readonly options: FeedStreamOptions,
    private readonly logger: Logger,
  ) {
    this.response = reply.raw;
    this.reader = request.reader;
  }

  async run(): Promise<void> {
    const response = this.response;
    const headers: Record<string, string | number | string[]> = {};
    for (const [name, value] of Object.entries(this.reply.getHeaders())) {
      if (value !== undefined) headers[name] = value;
    }
    delete headers['content-length'];
    response.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    response.socket?.setNoDelay(true);
    response.on('close', () => this.finish());
    // the headers go out at once, and a client learns how soon to come back after a cut
    this.write('retry: 1000\n\n');

    const keepAlive = setInterval(() => {
      if (Date.now() - this.lastWrite >= this.options.keepAliveMs - 5) this.write(': keep-alive\n\n');
    }, this.options.keepAliveMs);
    const recheck = setInterval(() => void this.recheck(), this.options.recheckMs);
    try {
      await this.follow();
    } catch (error) {
      this.logger.error(`feed stream failed: ${(error as Error).stack ?? String(error)}`);
      this.end(500, 'The stream failed: reconnect with Last-Event-ID');
    } finally {
      clearInterval(keepAlive);
      clearInterval(recheck);
    }
  }

  /** Ends the stream with a last `event: error` message in the API's error shape. */
  end(code: number, message: string): void {
    if (this.ended) return;
    this.response.write(`event: error\ndata: ${JSON.stringify(errorBody(code, message))}\n\n`);
    this.finish();
    this.response.end();
    // a consumer that does not read its last message is not waited for
    setTimeout(() => this.response.destroy(), CLOSE_GRACE_MS).unref();
  }

  private finish(): void {
    this.ended = true;
    this.stop.abort();
  }

  private async follow(): Promise<void> {
    let cursor = this.request.after;
    while (!this.ended) {
      // access is judged as each page goes out: a grant given or taken a moment ago counts
      const reader = await this.feed.readerOrNull(this.reader.organizationId, this.reader.userId);
      if (!reader) return this.end(404, `Organization ${this.reader.organizationId} not found`);
      this.reader = reader;
      const page = await this.feed.page(reader, { after: cursor, limit: STREAM_PAGE, types: this.request.types });
      for (const event of page.events) {
        if (!(await this.send(frame(event)))) return;
      }
      cursor = page.scannedTo;
      if (!page.more) await this.feed.waitAfter(cursor, this.stop.signal);
    }
  }

  /**
   * Writes an event once the socket's write buffer has room for it under the bound; a consumer that does not make
   * that room within the drain timeout is disconnected.
   */
  private async send(chunk: string): Promise<boolean> {
    if (this.ended) return false;
    if (this.response.writableLength + Buffer.byteLength(chunk) > this.options.maxBufferedBytes) {
      if (!(await this.drained())) return false;
    }
    return this.write(chunk);
  }

  /** Writes unless the stream ended (keep-alive comments and the events `send` made room for). */
  private write(chunk: string): boolean {
    if (this.ended) return false;
    this.response.write(chunk);
    this.lastWrite = Date.now();
    return true;
  }

  /** Waits for the socket to take what was written; false (and the stream ended) when it does not in time. */
  private drained(): Promise<boolean> {
    if (!this.response.writableNeedDrain) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.response.off('drain', onDrain);
        this.stop.signal.removeEventListener('abort', onAbort);
        resolve(ok);
      };
      const onDrain = () => done(true);
      const onAbort = () => done(false);
      const timer = setTimeout(() => {
        this.end(429, 'The consumer reads too slowly: reconnect with Last-Event-ID to resume');
        done(false);
      }, this.options.drainTimeoutMs);
      this.response.on('drain', onDrain);
      this.stop.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private checking = false;

  /** The token must still work and its user still belong to the organization (their access is judged afresh). */
  private async recheck(): Promise<void> {
    if (this.checking || this.ended) return;
    this.checking = true;
    try {
      const authentication = await this.authenticator.authenticate(this.request.authorization);
      if (!authentication.ok || authentication.userId !== this.reader.userId) {
        this.end(401, authentication.ok ? 'The token changed hands' : authentication.error.message);
        return;
      }
      const reader = await this.feed.readerOrNull(this.reader.organizationId, this.reader.userId);
      if (!reader) {
        this.end(404, `Organization ${this.reader.organizationId} not found`);
        return;
      }
      this.reader = reader;
    } catch (error) {
      this.logger.warn(`feed stream re-check failed: ${(error as Error).message}`);
    } finally {
      this.checking = false;
    }
  }
}

/** One event as an SSE message (JSON holds no raw line breaks, so `data:` is one line). */
export function frame(event: PublicEvent): string {
  return `id: ${event.position}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
