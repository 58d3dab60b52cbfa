// The database holds every account's stock and the hashes of its tokens: its file, SQLite's WAL and
// SHM files beside it, backups and the folders made for them are for the user who runs the program
// only (files 0600, folders 0700), whatever the umask says. SQLite gives the WAL, SHM and journal
// files the mode of their database file, so creating that file private is enough for them.
import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIRECTORY_MODE = 0o700;

/** Creates the folder and any missing parents; those made here (never existing ones such as /tmp) are private. */
export function makePrivateDirectory(dir: string): void {
  const absolute = path.resolve(dir);
  const first = mkdirSync(absolute, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  if (first === undefined) return;
  // mkdir's mode is masked by the umask; set it exactly on each folder this call created.
  for (let made = absolute; made.length >= first.length; made = path.dirname(made)) chmodSync(made, PRIVATE_DIRECTORY_MODE);
}

/**
 * Makes `file` an empty private file when it does not exist yet (SQLite then starts a database in it),
 * and takes group and other access away from an existing one. Its folder is made as above.
 */
export function preparePrivateFile(file: string): void {
  makePrivateDirectory(path.dirname(path.resolve(file)));
  if (!existsSync(file)) {
    try {
      const fd = openSync(file, 'wx', PRIVATE_FILE_MODE);
      try {
        fchmodSync(fd, PRIVATE_FILE_MODE);
      } finally {
        closeSync(fd);
      }
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  tightenMode(file);
}

/** Removes group and other access from an existing file (and its WAL and SHM files), where this user may. */
export function tightenMode(file: string): void {
  for (const each of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      const mode = statSync(each).mode & 0o777;
      if ((mode & 0o077) !== 0) chmodSync(each, mode & 0o700);
    } catch {
      // Missing, or not ours to change (a read-only mount): SQLite reports what matters when it opens it.
    }
  }
}
