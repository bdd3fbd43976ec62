import { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type Socket } from 'node:net';
import { errorBody } from '@app/kernel';

/**
 * What a connection is doing: `waiting` for a request (new, or idle between keep-alive requests), `receiving` one
 * (its head arrived, its body has not all been read), or `handling` it (the route runs and answers).
 */
type Phase = 'waiting' | 'receiving' | 'handling';

interface Connection {
  phase: Phase;
  /** When the phase began (ms, monotonic). */
  since: number;
  response?: ServerResponse;
}

export interface ConnectionLimits {
  /** Open connections at most. */
  max: number;
  /** How long a connection may wait for or send a request before it is closed. */
  requestTimeoutMs: number;
}

/**
 * Keeps a server answering when clients hold connections open without finishing their requests:
 * - a connection that has been waiting for or receiving a request for longer than `requestTimeoutMs` is closed
 *   (a request whose body never ends gets a 408 first), checked a few times per timeout;
 * - past `max` open connections, each new one makes room by closing the oldest waiting connection, else the oldest
 *   receiving one: a connection whose request is being handled is never shed. So slow or idle clients cannot
 *   take every descriptor, and a caller who sends a whole request (`/health`, a client with a token) is served
 *   even when every other connection comes from the same address.
 */
export class ConnectionGuard {
  private readonly connections = new Map<Socket, Connection>();
  private readonly sweeper: NodeJS.Timeout;
  /** Connections closed because they timed out, and because room was needed (for tests and logs). */
  readonly closed = { timedOut: 0, shed: 0 };

  constructor(
    server: Server,
    private readonly limits: ConnectionLimits,
  ) {
    server.on('connection', (socket: Socket) => this.opened(socket));
    // Before the framework's own listener: its hooks may run synchronously within this event and mark the
    // request as being handled (`handling`), which must not be undone here afterwards (a long-lived answer, such
    // as an event stream, would then be closed as a request that never arrived).
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      const connection = this.connections.get(request.socket);
      if (!connection) return;
      this.enter(connection, 'receiving');
      connection.response = response;
      // `on`, not `once`: a response closes once, so they behave alike, but with `once` (its wrapper and bound
      // state per request) a quarter of what each request allocated survived the young generation's collections
      // and was promoted, so every scavenge copied ~4 MB and paused the loop ~10 ms (with `on`: nothing promoted,
      // ~1 ms). Measured with --trace-gc-nvp under 50 connections of GET; see bench/NOTES.md.
      response.on('close', () => {
        if (connection.response !== response) return;
        connection.response = undefined;
        this.enter(connection, 'waiting');
      });
    });
    const every = Math.max(50, Math.min(5000, Math.floor(limits.requestTimeoutMs / 4)));
    this.sweeper = setInterval(() => this.sweep(), every).unref();
    server.once('close', () => clearInterval(this.sweeper));
  }

  /** The request on this socket has been read whole (its route is about to run). */
  handling(socket: Socket): void {
    const connection = this.connections.get(socket);
    if (connection) this.enter(connection, 'handling');
  }

  get open(): number {
    return this.connections.size;
  }

  private opened(socket: Socket): void {
    if (this.connections.size >= this.limits.max && !this.shedOne()) {
      socket.destroy();
      return;
    }
    this.connections.set(socket, { phase: 'waiting', since: performance.now() });
    socket.once('close', () => this.connections.delete(socket));
  }

  private enter(connection: Connection, phase: Phase): void {
    connection.phase = phase;
    connection.since = performance.now();
  }

  /** Closes the oldest waiting connection, else the oldest receiving one; false when all are being handled. */
  private shedOne(): boolean {
    let receiving: Socket | undefined;
    for (const [socket, connection] of this.connections) {
      if (connection.phase === 'waiting') {
        this.close(socket, connection, 'shed');
        return true;
      }
      if (connection.phase === 'receiving' && !receiving) receiving = socket;
    }
    if (!receiving) return false;
    this.close(receiving, this.connections.get(receiving)!, 'shed');
    return true;
  }

  private sweep(): void {
    const deadline = performance.now() - this.limits.requestTimeoutMs;
    for (const [socket, connection] of this.connections) {
      if (connection.phase !== 'handling' && connection.since < deadline) this.close(socket, connection, 'timedOut');
    }
  }

  private close(socket: Socket, connection: Connection, why: 'timedOut' | 'shed'): void {
    this.connections.delete(socket);
    this.closed[why]++;
    const response = connection.response;
    if (why === 'timedOut' && response && !response.headersSent && socket.writable) {
      const body = JSON.stringify(errorBody(408, 'The request took too long to arrive'));
      response.shouldKeepAlive = false;
      response.writeHead(408, { 'content-type': 'application/json; charset=utf-8', connection: 'close' }).end(body);
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    socket.destroy();
  }
}
