// SQLite errors that mean "the disk or the database file cannot be used right now" rather than "the
// request is wrong" or "the code is wrong". SQLite has rolled the transaction back, so they become
// the store's storageUnavailable (503, Retry-After): when space or write access returns, the
// server carries on without a restart.
import { storageUnavailable } from '../../errors.ts';

const UNAVAILABLE_CODES = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|PROTOCOL)(_|$)/;

function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, name } = error as { code?: unknown; name?: unknown };
  return name === 'SqliteError' && typeof code === 'string' && UNAVAILABLE_CODES.test(code);
}

/** The error to throw instead of `error`: a storage fault becomes storageUnavailable, anything else stays. */
export function translateSqliteError(error: unknown): unknown {
  return isUnavailable(error) ? storageUnavailable(error) : error;
}
