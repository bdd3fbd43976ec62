import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The WAL-index header at the start of a `-shm` file: two copies of 48 bytes (SQLite's file format, "WAL-Index
 * Format"). Every commit rewrites it: `iChange` counts transactions, `mxFrame`, the frame checksum and, after the
 * log restarts, the salts move with the frames; a checkpoint does not touch it.
 */
const WAL_INDEX_HEADER = { offset: 0, bytes: 96 };
/**
 * The file change counter of a database in rollback-journal mode: 4 bytes at offset 24 of the database file's
 * header, incremented by every transaction that modifies the file (SQLite's file format, "File change counter").
 */
const CHANGE_COUNTER = { offset: 24, bytes: 4 };

/** One descriptor per file in this process, with how many watches use it. */
const descriptors = new Map<string, { fd: number; users: number }>();

/**
 * Whether any connection (of this process or another) may have committed to a SQLite database since the last
 * look, told by reading a few bytes that every commit changes, with one `pread` (about 1.5 µs here), where `PRAGMA
 * data_version` opens a read transaction with its locks (`fcntl` calls: 7–14 µs a request under load):
 * - in WAL mode, the WAL-index header at the start of the `-shm` file ({@link CommitWatch.walIndexOf});
 * - in rollback-journal mode, the file change counter in the database file's header
 *   ({@link CommitWatch.changeCounterOf}).
 *
 * Those bytes move with every commit and only then, so unchanged bytes mean no commit: a store asks `PRAGMA
 * data_version` (which tells this connection's commits from others') only when they have moved. Bytes being
 * rewritten while they are read differ from the last ones seen: also a "may have". A commit whose bytes are not
 * written yet has not returned to its writer either, so answering from before it is what a read that started
 * earlier would have seen.
 *
 * Closing any descriptor of a file drops every POSIX lock this process holds on it, SQLite's included, so the
 * process keeps one descriptor per file, shared by its watches, and closes it when the last watch is released:
 * a store releases its watch only after its own connections to the file (and its checkpointer's) are closed.
 */
export class CommitWatch {
  private readonly seen: Buffer;
  private readonly now: Buffer;
  private fd: number | undefined;
  private looked = false;

  private constructor(
    private readonly path: string,
    private readonly region: { offset: number; bytes: number },
  ) {
    this.seen = Buffer.alloc(region.bytes);
    this.now = Buffer.alloc(region.bytes);
  }

  /**
   * A watch of a database file in WAL mode whose `-shm` file exists (open a connection first); undefined when
   * there is none to read (an in-memory database, another journal mode), and then every look must ask SQLite.
   */
  static walIndexOf(file: string): CommitWatch | undefined {
    return CommitWatch.open(`${file}-shm`, WAL_INDEX_HEADER);
  }

  /**
   * A watch of a database file in rollback-journal mode (`journal_mode = DELETE`, `TRUNCATE` or `PERSIST`) that
   * exists (open a connection first); undefined when there is none (an in-memory database).
   */
  static changeCounterOf(file: string): CommitWatch | undefined {
    return CommitWatch.open(file, CHANGE_COUNTER);
  }

  private static open(path: string, region: { offset: number; bytes: number }): CommitWatch | undefined {
    let shared = descriptors.get(path);
    if (shared === undefined) {
      let fd: number;
      try {
        fd = openSync(path, 'r');
      } catch {
        return undefined;
      }
      descriptors.set(path, (shared = { fd, users: 0 }));
    }
    shared.users += 1;
    const watch = new CommitWatch(path, region);
    watch.fd = shared.fd;
    return watch;
  }

  /** False when nothing can have been committed since the last call; true otherwise (also on the first call). */
  mayHaveChanged(): boolean {
    if (this.fd === undefined) return true;
    const { offset, bytes } = this.region;
    let read = 0;
    try {
      read = readSync(this.fd, this.now, 0, bytes, offset);
    } catch {
      read = 0;
    }
    if (read === bytes && this.looked && this.now.equals(this.seen)) return false;
    this.looked = true;
    if (read === bytes) this.now.copy(this.seen);
    else this.seen.fill(0);
    return true;
  }

  /** Gives the descriptor back; call once this user's connections to the database are closed. */
  release(): void {
    if (this.fd === undefined) return;
    this.fd = undefined;
    const shared = descriptors.get(this.path);
    if (shared === undefined) return;
    shared.users -= 1;
    if (shared.users > 0) return;
    descriptors.delete(this.path);
    closeSync(shared.fd);
  }
}

/**
 * A connection's `PRAGMA data_version` (it changes when another connection commits), asked of SQLite only when
 * `watch` says a commit may have happened since the last look; otherwise the value last read. Without a watch (an
 * in-memory database) every look asks SQLite.
 */
export class DataVersion {
  private last = 0;

  /** `read` runs the connection's `PRAGMA data_version`; the watch, if any, is this object's to release. */
  constructor(
    private readonly read: () => number,
    private readonly watch: CommitWatch | undefined,
  ) {}

  get(): number {
    if (this.watch === undefined || this.watch.mayHaveChanged()) this.last = this.read();
    return this.last;
  }

  /** Gives the watch's descriptor back; call once the connections to the database are closed. */
  release(): void {
    this.watch?.release();
  }
}
