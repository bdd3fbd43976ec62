import { type ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleDestroy, Optional } from '@nestjs/common';
import { type FastifyReply } from 'fastify';
import {
  type GlobalPosition,
  PUBLIC_EVENT_SOURCE,
  type PublicEvent,
  type PublicEventSource,
  TooMany,
  errorBody,
} from '@app/kernel';
import { TokenAuthenticator } from '@app/identity';
import { type FeedReader, OrganizationFeed } from './organization-feed';
import { OrganizationTail, type TailBatch } from './organization-tail';

export interface FeedStreamOptions {
  /** A comment line is sent after this long without anything else, so that proxies keep the stream open. */
  keepAliveMs: number;
  /** What a stream may leave in the socket's write buffer: it waits for the consumer to read before sending more. */
  maxBufferedBytes: number;
  /** How long a full write buffer may take to drain: a consumer that reads slower than that is disconnected. */
  drainTimeoutMs: number;
  /** How often the token and the caller's access are checked again. */
  recheckMs: number;
  /**
   * Streams open at once at most, and per token: an open stream holds a connection that is never shed to make
   * room (it is being answered), so without a bound a few callers could take every connection the server allows.
   */
  maxStreams: number;
  maxStreamsPerToken: number;
}

export const FEED_STREAM_OPTIONS = Symbol('FEED_STREAM_OPTIONS');

export const DEFAULT_FEED_STREAM_OPTIONS: FeedStreamOptions = {
  keepAliveMs: 15_000,
  maxBufferedBytes: 1024 * 1024,
  drainTimeoutMs: 10_000,
  recheckMs: 1000,
  maxStreams: 500,
  maxStreamsPerToken: 20,
};

/** Events read from the store at once while a stream catches up. */
const STREAM_PAGE = 500;
/** Events a stream may have waiting from the tail before it leaves it and reads on its own. */
const MAX_QUEUED_EVENTS = 5000;
/** How long a stream that ended with an error waits for the consumer to read its last message before closing. */
const CLOSE_GRACE_MS = 5000;

export interface StreamRequest {
  reader: FeedReader;
  /** The token the stream is opened with (streams are counted per token). */
  tokenId: string;
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
  private readonly perToken = new Map<string, number>();
  private readonly tails = new Map<string, OrganizationTail>();
  private readonly options: FeedStreamOptions;

  constructor(
    private readonly feed: OrganizationFeed,
    private readonly authenticator: TokenAuthenticator,
    @Inject(PUBLIC_EVENT_SOURCE) private readonly source: PublicEventSource,
    @Optional() @Inject(FEED_STREAM_OPTIONS) options?: Partial<FeedStreamOptions>,
  ) {
    this.options = { ...DEFAULT_FEED_STREAM_OPTIONS, ...options };
  }

  /** The shared reader of an organization's newest events (made when a stream first needs it). */
  tailOf(organizationId: string): OrganizationTail {
    let tail = this.tails.get(organizationId);
    if (!tail) {
      tail = new OrganizationTail(organizationId, this.source, (idle) => {
        if (this.tails.get(organizationId) === idle) this.tails.delete(organizationId);
      });
      this.tails.set(organizationId, tail);
    }
    return tail;
  }

  get count(): number {
    return this.open.size;
  }

  /** Takes the response over from the framework and streams until the consumer leaves or the stream must end. */
  start(reply: FastifyReply, request: StreamRequest): void {
    const { tokenId } = request;
    const mine = this.perToken.get(tokenId) ?? 0;
    if (mine >= this.options.maxStreamsPerToken) {
      throw new TooMany(
        `This token has ${mine} event streams open, as many as one token may: close one before opening another`,
      );
    }
    if (this.open.size >= this.options.maxStreams) {
      throw new TooMany(`The service has ${this.open.size} event streams open, as many as it serves: retry later`);
    }
    void reply.hijack();
    const stream = new FeedStream(reply, request, this.feed, this.authenticator, this.options, this.logger, (org) =>
      this.tailOf(org),
    );
    this.open.add(stream);
    this.perToken.set(tokenId, mine + 1);
    void stream.run().finally(() => {
      this.open.delete(stream);
      const left = (this.perToken.get(tokenId) ?? 1) - 1;
      if (left > 0) this.perToken.set(tokenId, left);
      else this.perToken.delete(tokenId);
    });
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
    private readonly tailOf: (organizationId: string) => OrganizationTail,
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

  /**
   * Catches up on its own (pages read for this caller) until it reaches the organization's tail, then takes the
   * tail's batches; a stream whose batches pile up (its consumer reads slowly) leaves the tail and reads on its own
   * again, at its consumer's pace.
   */
  private async follow(): Promise<void> {
    let cursor = this.request.after;
    const organizationId = this.reader.organizationId;
    while (!this.ended) {
      let tail = this.tailOf(organizationId);
      while (cursor < tail.cursor) {
        if (!(await this.refreshReader())) return;
        const page = await this.feed.page(this.reader, {
          after: cursor,
          limit: STREAM_PAGE,
          types: this.request.types,
        });
        for (const event of page.events) {
          if (!(await this.send(frame(event)))) return;
        }
        cursor = page.scannedTo;
        if (this.ended) return;
        tail = this.tailOf(organizationId);
      }
      // from here no await until attached: the tail's next batch starts at or before `cursor`
      const queue: TailBatch[] = [];
      let queued = 0;
      let wake: (() => void) | undefined;
      const listener = (batch: TailBatch) => {
        queue.push(batch);
        queued += batch.events.length;
        wake?.();
      };
      const onStop = () => wake?.();
      this.stop.signal.addEventListener('abort', onStop);
      tail.attach(listener);
      try {
        while (!this.ended) {
          if (queue.length === 0) {
            await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
            continue;
          }
          if (queued > MAX_QUEUED_EVENTS) break; // too far behind: read on its own from `cursor`
          const batch = queue.shift()!;
          queued -= batch.events.length;
          if (!(await this.refreshReader())) return;
          for (const stored of batch.events) {
            const position = BigInt(stored.event.position);
            if (position <= cursor) continue;
            if (this.request.types && !this.request.types.includes(stored.event.type)) continue;
            if (!(await this.reader.mayRead(stored))) continue;
            if (!(await this.send(frame(stored.event)))) return;
            cursor = position;
          }
          if (batch.to > cursor) cursor = batch.to;
        }
      } finally {
        tail.detach(listener);
        this.stop.signal.removeEventListener('abort', onStop);
      }
    }
  }

  /** Access is judged as events go out: a grant given or taken a moment ago counts. False (and ended) for a leaver. */
  private async refreshReader(): Promise<boolean> {
    const reader = await this.feed.readerOrNull(this.reader.organizationId, this.reader.userId);
    if (!reader) {
      this.end(404, `Organization ${this.reader.organizationId} not found`);
      return false;
    }
    this.reader = reader;
    return true;
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

/** Messages already written out, by event (the tail hands the same event objects to every stream). */
const frames = new WeakMap<PublicEvent, string>();

/** One event as an SSE message (JSON holds no raw line breaks, so `data:` is one line). */
export function frame(event: PublicEvent): string {
  let text = frames.get(event);
  if (text === undefined) {
    text = `id: ${event.position}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    frames.set(event, text);
  }
  return text;
}
