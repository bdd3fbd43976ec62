import { createPrivateKey, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  Min,
  MinLength,
  ValidateIf,
  validateSync,
} from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : ['1', 'true', 'yes', 'on'].includes(String(value).toLowerCase())
      ? true
      : ['0', 'false', 'no', 'off'].includes(String(value).toLowerCase())
        ? false
        : value;
const url = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };
const dbUrl = {
  require_tld: false,
  require_protocol: true,
  protocols: [
    'esdb',
    'esdb+discover',
    'mongodb',
    'mongodb+srv',
    'kurrentdb',
    'kurrentdb+discover',
    'kdb',
    'kdb+discover',
  ],
};

/** Every setting the service reads from its environment. Documented in README.md. */
class Environment {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  DATA_DIR?: string;

  @IsOptional()
  @IsIn(['sqlite', 'eventstoredb'])
  EVENT_STORE?: 'sqlite' | 'eventstoredb';

  @ValidateIf(
    (env: Environment) => env.EVENT_STORE === 'eventstoredb' || env.EVENTSTORE_CONNECTION_STRING !== undefined,
  )
  @IsUrl(dbUrl, {
    message:
      'EVENTSTORE_CONNECTION_STRING must be set to an esdb:// or kurrentdb:// connection string when EVENT_STORE=eventstoredb',
  })
  EVENTSTORE_CONNECTION_STRING?: string;

  @IsOptional()
  @IsIn(['sqlite', 'mongodb'])
  READ_STORE?: 'sqlite' | 'mongodb';

  @IsOptional()
  @IsIn(['sqlite', 'mongodb'])
  SEARCH_INDEX?: 'sqlite' | 'mongodb';

  @IsOptional()
  @IsIn(['sqlite', 'mongodb'])
  KEY_STORE?: 'sqlite' | 'mongodb';

  @IsOptional()
  @IsIn(['files', 'mongodb'])
  BLOB_STORE?: 'files' | 'mongodb';

  @ValidateIf(
    (env: Environment) =>
      env.READ_STORE === 'mongodb' ||
      env.SEARCH_INDEX === 'mongodb' ||
      env.KEY_STORE === 'mongodb' ||
      env.BLOB_STORE === 'mongodb' ||
      env.MONGODB_URL !== undefined,
  )
  @IsUrl(dbUrl, {
    message:
      'MONGODB_URL must be set to a mongodb:// URL when READ_STORE, SEARCH_INDEX, KEY_STORE or BLOB_STORE is mongodb',
  })
  MONGODB_URL?: string;

  @IsOptional()
  @IsUrl(url)
  PUBLIC_URL?: string;

  @IsOptional()
  @IsUrl(url)
  APP_URL?: string;

  @IsOptional()
  @IsUrl(url)
  SITES_URL?: string;

  @IsOptional()
  @IsString()
  @MinLength(32)
  CURSOR_SECRET?: string;

  @IsOptional()
  @IsString()
  @MinLength(32)
  SECRETS_KEY?: string;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  RATE_LIMIT_ENABLED?: boolean;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_MAX?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  RATE_LIMIT_WINDOW_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES?: number;

  @IsOptional()
  @IsString()
  SAML_SIGNING_KEY_FILE?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(16)
  MAX_CONNECTIONS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  REQUEST_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  READ_YOUR_WRITES_TIMEOUT_MS?: number;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  FETCH_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  FETCH_MAX_BYTES?: number;

  @IsOptional()
  @IsString()
  FETCH_ALLOWLIST?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(3_600_000)
  SSE_KEEPALIVE_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(16_384)
  SSE_MAX_BUFFERED_BYTES?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  SSE_DRAIN_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SSE_MAX_STREAMS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SSE_MAX_STREAMS_PER_TOKEN?: number;
}

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  eventStore: { driver: 'sqlite'; file: string } | { driver: 'eventstoredb'; connectionString: string };
  readStore: { driver: 'sqlite'; file: string } | { driver: 'mongodb'; url: string };
  /** The full-text index of pages (the search projection's store). */
  searchIndex: { driver: 'sqlite'; file: string } | { driver: 'mongodb'; url: string };
  /** The keys that personal data in events is encrypted with (one per person; destroyed when they are erased). */
  keyStore: { driver: 'sqlite'; file: string } | { driver: 'mongodb'; url: string };
  /** Uploaded files and generated documents (PDFs, integration assets, OpenAPI sources). */
  blobStore: { driver: 'files'; directory: string } | { driver: 'mongodb'; url: string };
  publicUrl: string;
  appUrl: string;
  /** Base address of published docs sites (a site is at `<sitesUrl>/<organization hostname or id>/<basename or id>`). */
  sitesUrl: string;
  cursorSecret: string;
  /** What the key that encrypts integration secrets at rest is derived from. */
  secretsKey: string;
  rateLimit: { enabled: boolean; max: number; windowMs: number };
  bodyLimitBytes: number;
  /**
   * Open connections at most (beyond it, idle and unfinished ones are shed, oldest first), and how long a
   * connection may take to send a whole request or stay idle.
   */
  connections: { max: number; requestTimeoutMs: number };
  settleTimeoutMs: number;
  logLevel: string;
  /** Imports and OpenAPI sources: the SSRF-safe fetcher's time limit, size cap and `host:port` entries exempt from its address guard. */
  fetch: { timeoutMs: number; maxBytes: number; allowlist: string };
  /** Server-Sent Events of the organization feed: the keep-alive comment's period, the write buffer a stream may fill, and how long a full one may take to drain. */
  feed: {
    keepAliveMs: number;
    maxBufferedBytes: number;
    drainTimeoutMs: number;
    /** Open streams at most (each holds a connection that is never shed), and per token. */
    maxStreams: number;
    maxStreamsPerToken: number;
  };
  /** PEM private key that signs the SAML AuthnRequests sent to identity providers; unsigned without one. */
  samlSigningKey: string | null;
}

export class ConfigError extends Error {}

/**
 * Reads and validates the configuration. Throws a `ConfigError` that lists every bad variable, so start-up fails
 * with one clear message instead of a stack trace.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = plainToInstance(Environment, raw, { excludeExtraneousValues: false });
  const errors = validateSync(parsed, { skipMissingProperties: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.flatMap((error) =>
      Object.values(error.constraints ?? {}).map((text) =>
        text.startsWith(error.property) ? text : `${error.property}: ${text}`,
      ),
    );
    throw new ConfigError(`Invalid configuration:\n  - ${lines.join('\n  - ')}`);
  }
  const port = parsed.PORT ?? 3000;
  const dataDir = resolve(parsed.DATA_DIR ?? './data');
  const publicUrl = (parsed.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const maxConnections = parsed.MAX_CONNECTIONS ?? defaultMaxConnections();
  return {
    port,
    host: parsed.HOST ?? '127.0.0.1',
    dataDir,
    eventStore:
      (parsed.EVENT_STORE ?? 'sqlite') === 'sqlite'
        ? { driver: 'sqlite', file: join(dataDir, 'events.sqlite') }
        : { driver: 'eventstoredb', connectionString: parsed.EVENTSTORE_CONNECTION_STRING! },
    readStore:
      (parsed.READ_STORE ?? 'sqlite') === 'sqlite'
        ? { driver: 'sqlite', file: join(dataDir, 'read.sqlite') }
        : { driver: 'mongodb', url: parsed.MONGODB_URL! },
    searchIndex:
      (parsed.SEARCH_INDEX ?? 'sqlite') === 'sqlite'
        ? { driver: 'sqlite', file: join(dataDir, 'search.sqlite') }
        : { driver: 'mongodb', url: parsed.MONGODB_URL! },
    keyStore:
      (parsed.KEY_STORE ?? parsed.READ_STORE ?? 'sqlite') === 'sqlite'
        ? { driver: 'sqlite', file: join(dataDir, 'keys.sqlite') }
        : { driver: 'mongodb', url: parsed.MONGODB_URL! },
    blobStore:
      (parsed.BLOB_STORE ?? 'files') === 'files'
        ? { driver: 'files', directory: join(dataDir, 'blobs') }
        : { driver: 'mongodb', url: parsed.MONGODB_URL! },
    publicUrl,
    appUrl: (parsed.APP_URL ?? publicUrl).replace(/\/+$/, ''),
    sitesUrl: (parsed.SITES_URL ?? `${(parsed.APP_URL ?? publicUrl).replace(/\/+$/, '')}/sites`).replace(/\/+$/, ''),
    cursorSecret: parsed.CURSOR_SECRET ?? dataDirSecret(dataDir),
    secretsKey: parsed.SECRETS_KEY ?? dataDirSecret(dataDir, 'secrets-key'),
    rateLimit: {
      enabled: parsed.RATE_LIMIT_ENABLED ?? true,
      max: parsed.RATE_LIMIT_MAX ?? 1200,
      windowMs: parsed.RATE_LIMIT_WINDOW_MS ?? 60_000,
    },
    bodyLimitBytes: parsed.BODY_LIMIT_BYTES ?? 1024 * 1024,
    connections: {
      max: maxConnections,
      requestTimeoutMs: parsed.REQUEST_TIMEOUT_MS ?? 30_000,
    },
    settleTimeoutMs: parsed.READ_YOUR_WRITES_TIMEOUT_MS ?? 5000,
    logLevel: parsed.LOG_LEVEL ?? 'info',
    fetch: {
      timeoutMs: parsed.FETCH_TIMEOUT_MS ?? 10_000,
      maxBytes: parsed.FETCH_MAX_BYTES ?? 10 * 1024 * 1024,
      allowlist: parsed.FETCH_ALLOWLIST ?? '',
    },
    feed: {
      keepAliveMs: parsed.SSE_KEEPALIVE_MS ?? 15_000,
      maxBufferedBytes: parsed.SSE_MAX_BUFFERED_BYTES ?? 1024 * 1024,
      drainTimeoutMs: parsed.SSE_DRAIN_TIMEOUT_MS ?? 10_000,
      maxStreams: parsed.SSE_MAX_STREAMS ?? Math.max(1, Math.floor(maxConnections / 2)),
      maxStreamsPerToken: parsed.SSE_MAX_STREAMS_PER_TOKEN ?? 20,
    },
    samlSigningKey: parsed.SAML_SIGNING_KEY_FILE ? samlSigningKey(parsed.SAML_SIGNING_KEY_FILE) : null,
  };
}

/**
 * Half the process's open-file limit (Linux reports it in /proc/self/limits), at most 10,000, so that connections
 * never take the descriptors the stores and the log need; 1,000 where the limit cannot be read.
 */
function defaultMaxConnections(): number {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8');
    const soft = /^Max open files\s+(\d+)/m.exec(limits)?.[1];
    if (soft) return Math.max(16, Math.min(10_000, Math.floor(Number(soft) / 2)));
  } catch {
    // not Linux
  }
  return 1000;
}

/** Reads the SAML request signing key and checks, at start-up, that it is a private key. */
function samlSigningKey(file: string): string {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
    createPrivateKey(pem);
  } catch {
    throw new ConfigError(
      `Invalid configuration:\n  - SAML_SIGNING_KEY_FILE: ${file} is not a readable PEM private key`,
    );
  }
  return pem;
}

/**
 * Without CURSOR_SECRET (or SECRETS_KEY), a random secret is kept in DATA_DIR (mode 0600) so cursors (or sealed
 * integration secrets) survive restarts of one installation.
 */
function dataDirSecret(dataDir: string, name = 'cursor-secret'): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // another process (the CLI, a second server) created it first: use theirs
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
