import { type ClientRequest, type IncomingMessage, request } from 'node:http';

/** One Server-Sent Events message, or a comment line (`: …`). */
export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
  /** The reconnection delay the server asks for. */
  retry?: string;
  /** When the message was parsed (ms, monotonic). */
  at: number;
}

/**
 * A small Server-Sent Events client over node:http (the tests need to see comments, close at any point and
 * pause reading, which EventSource does not allow).
 */
export class SseClient {
  readonly messages: SseMessage[] = [];
  readonly closed: Promise<void>;
  private listeners: (() => void)[] = [];
  private buffer = '';
  private current: Omit<SseMessage, 'at'> = {};
  private closedHere = false;

  private constructor(
    readonly response: IncomingMessage,
    private readonly req: ClientRequest,
    private readonly onMessage?: (message: SseMessage, client: SseClient) => void,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.parse(chunk));
    this.closed = new Promise((resolve) => {
      response.on('close', () => resolve());
      response.on('error', () => resolve());
    });
  }

  static open(
    url: string,
    headers: Record<string, string>,
    onMessage?: (message: SseMessage, client: SseClient) => void,
  ): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) =>
        resolve(new SseClient(response, req, onMessage)),
      );
      req.on('error', reject);
      req.end();
    });
  }

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  /** Events only (no comments, no `retry`). */
  get events(): SseMessage[] {
    return this.messages.filter((message) => message.event !== undefined || message.data !== undefined);
  }

  /** Ends the connection; nothing that arrived after this call is parsed, not even the rest of its chunk. */
  close(): void {
    this.closedHere = true;
    this.req.destroy();
    this.response.destroy();
  }

  pause(): void {
    this.response.pause();
  }

  resume(): void {
    this.response.resume();
  }

  /** Resolves once `check` holds (checked on every message), rejects after `timeoutMs`. */
  waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const listener = () => {
        if (!check()) return;
        clearTimeout(timer);
        this.listeners = this.listeners.filter((one) => one !== listener);
        resolve();
      };
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((one) => one !== listener);
        reject(new Error(`timed out after ${timeoutMs} ms with ${this.messages.length} messages`));
      }, timeoutMs).unref();
      this.listeners.push(listener);
    });
  }

  private parse(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while (!this.closedHere && (newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      if (line === '') {
        if (Object.keys(this.current).length > 0) this.emit({ ...this.current, at: performance.now() });
        this.current = {};
      } else if (line.startsWith(':')) {
        this.emit({ comment: line.slice(1).trim(), at: performance.now() });
      } else {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id' || field === 'event' || field === 'retry') this.current[field] = value;
        else if (field === 'data')
          this.current.data = this.current.data === undefined ? value : `${this.current.data}\n${value}`;
      }
    }
  }

  private emit(message: SseMessage): void {
    this.messages.push(message);
    this.onMessage?.(message, this);
    for (const listener of [...this.listeners]) listener();
  }
}
