import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Prepares a file only this service's user may read: its folder is created 0700 when missing, the file itself
 * 0600 (an existing one is narrowed to 0600). SQLite gives its `-wal` and `-shm` files the mode of the database
 * file, so opening a database prepared here keeps all three private.
 */
export function preparePrivateFile(file: string): void {
  mkdirSync(dirname(resolve(file)), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/** Whether a SQLite location names a file (not an in-memory database). */
export function isSqliteFile(file: string): boolean {
  return file !== '' && file !== ':memory:' && !file.startsWith('file::memory:');
}
