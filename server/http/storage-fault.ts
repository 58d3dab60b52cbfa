// SQLite errors that mean "the disk or the database file cannot be used right now" rather than "the
// request is wrong" or "the code is wrong". SQLite rolls the failed transaction back, so these are
// answered 503 (nothing was written) and the next request tries again: when space or write access
// returns, the server carries on without a restart.
const UNAVAILABLE_CODES = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|PROTOCOL)(_|$)/;

export function isStorageFault(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, name } = error as { code?: unknown; name?: unknown };
  return name === 'SqliteError' && typeof code === 'string' && UNAVAILABLE_CODES.test(code);
}

/** Seconds a client should wait before retrying after a storage fault. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;
