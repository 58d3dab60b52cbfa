// Copying a SQLite database file for a bench: a timed run starts from the same bytes each time.
import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, rmSync } from 'node:fs';

/**
 * A database as it is on disk, over whatever `to` held (no stale -wal of it left behind), flushed:
 * the kernel's writing back of a copy must not fall into the timed run that follows it, whose own
 * commits wait for the disk.
 */
export function copyDatabase(from: string, to: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    rmSync(to + suffix, { force: true });
    if (!existsSync(from + suffix)) continue;
    copyFileSync(from + suffix, to + suffix);
    const fd = openSync(to + suffix, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
