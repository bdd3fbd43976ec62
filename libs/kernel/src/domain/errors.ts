/**
 * Domain errors carry a kind; one HTTP filter maps kinds to statuses. Nothing below the controllers
 * throws framework exceptions.
 */
export type DomainErrorKind =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'illegal-state'
  | 'conflict'
  | 'precondition-failed'
  | 'timeout'
  | 'too-many'
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class ValidationFailed extends DomainError {
  constructor(message: string) {
    super('validation', message);
  }
}

export class NotFound extends DomainError {
  constructor(message: string) {
    super('not-found', message);
  }
}

export class Forbidden extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

export class Unauthenticated extends DomainError {
  constructor(message: string) {
    super('unauthenticated', message);
  }
}

/** The current state of the aggregate forbids the operation (HTTP 409). */
export class IllegalState extends DomainError {
  constructor(message: string) {
    super('illegal-state', message);
  }
}

/** The caller's `If-Match` precondition no longer holds (HTTP 412). */
export class PreconditionFailed extends DomainError {
  constructor(message: string) {
    super('precondition-failed', message);
  }
}

/** The caller holds as many of something as it may (open event streams, say): HTTP 429. */
export class TooMany extends DomainError {
  constructor(message: string) {
    super('too-many', message);
  }
}

/** A bounded wait ran out (for example read-your-writes); never answered with stale data. */
export class TimedOut extends DomainError {
  constructor(message: string) {
    super('timeout', message);
  }
}

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
