import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The WAL-index header at the start of a `-shm` file: two copies of 48 bytes (SQLite's file format, "WAL-Index
 * Format"). Every commit rewrites it: `iChange` counts transactions, `mxFrame`, the frame checksum and, after the
 * log restarts, the salts move with the frames; a checkpoint does not touch it.
 */
const HEADER_BYTES = 96;

/** One descriptor per `-shm` file in this process, with how many watches use it. */
const descriptors = new Map<string, { fd: number; users: number }>();

/**
 * Whether any connection (of this process or another) may have committed to a SQLite database in WAL mode since
 * the last look, told by reading the WAL-index header from the database's `-shm` file: one `pread` (about 1.5 µs
 * here), where `PRAGMA data_version` opens a read transaction with its shared-memory locks (`fcntl` calls: 7–14
 * µs a request under load). The header moves with every commit and only then, so an unchanged header means no
 * commit: a store asks `PRAGMA data_version` (which tells this connection's commits from others') only when it
 * has moved. A header being rewritten while it is read differs from the last one seen: also a "may have".
 *
 * Closing any descriptor of a file drops every POSIX lock this process holds on it, SQLite's included, so the
 * process keeps one descriptor per file, shared by its watches, and closes it when the last watch is released:
 * a store releases its watch only after its own connections to the file (and its checkpointer's) are closed.
 */
export class WalIndexWatch {
  private readonly seen = Buffer.alloc(HEADER_BYTES);
  private readonly now = Buffer.alloc(HEADER_BYTES);
  private fd: number | undefined;
  private looked = false;

  private constructor(private readonly shmFile: string) {}

  /**
   * A watch of a database file in WAL mode whose `-shm` file exists (open a connection first); undefined when
   * there is none to read (an in-memory database, another journal mode), and then every look must ask SQLite.
   */
  static of(file: string): WalIndexWatch | undefined {
    const shmFile = `${file}-shm`;
    let shared = descriptors.get(shmFile);
    if (shared === undefined) {
      let fd: number;
      try {
        fd = openSync(shmFile, 'r');
      } catch {
        return undefined;
      }
      descriptors.set(shmFile, (shared = { fd, users: 0 }));
    }
    shared.users += 1;
    const watch = new WalIndexWatch(shmFile);
    watch.fd = shared.fd;
    return watch;
  }

  /** False when nothing can have been committed since the last call; true otherwise (also on the first call). */
  mayHaveChanged(): boolean {
    if (this.fd === undefined) return true;
    let read = 0;
    try {
      read = readSync(this.fd, this.now, 0, HEADER_BYTES, 0);
    } catch {
      read = 0;
    }
    if (read === HEADER_BYTES && this.looked && this.now.equals(this.seen)) return false;
    this.looked = true;
    if (read === HEADER_BYTES) this.now.copy(this.seen);
    else this.seen.fill(0);
    return true;
  }

  /** Gives the descriptor back; call once this user's connections to the database are closed. */
  release(): void {
    if (this.fd === undefined) return;
    this.fd = undefined;
    const shared = descriptors.get(this.shmFile);
    if (shared === undefined) return;
    shared.users -= 1;
    if (shared.users > 0) return;
    descriptors.delete(this.shmFile);
    closeSync(shared.fd);
  }
}
