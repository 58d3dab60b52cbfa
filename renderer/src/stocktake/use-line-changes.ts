// A counting page's copy of a stocktake's lines, kept up to date while other terminals count: read
// whole once, then every two seconds only the lines changed since the last answer
// (GET /stocktakes/{id}/changes/?after=…), merged in; read whole again when lines were removed on the
// server (an undone scan), since a list of changes cannot say what is gone.
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { Stocktake, StocktakeLine } from '../../../shared/index.ts';
import { ApiError } from '../api/request-json.ts';
import { useSession } from '../api/session-context.tsx';
import type { OnFailure } from './on-failure.ts';

const REFRESH_MS = 2000;

/** `lines` with the changed ones replaced or added, in the order first scanned; `lines` itself when nothing changed. */
function mergeChanged(lines: StocktakeLine[], changed: readonly StocktakeLine[]): StocktakeLine[] {
  if (changed.length === 0) return lines;
  const byId = new Map(changed.map((line) => [line.id, line]));
  const next = lines.map((line) => byId.get(line.id) ?? line);
  const held = new Set(lines.map((line) => line.id));
  const added = changed.filter((line) => !held.has(line.id));
  return added.length === 0 ? next : [...next, ...added].sort((a, b) => a.id - b.id);
}

export interface LineChanges {
  /** The session as last read; null until the first answer. */
  session: Stocktake | null;
  /** Its lines, in the order first scanned; none once the session is no longer open. */
  lines: StocktakeLine[];
  /** Puts a line the server answered with (a scan, an edit, a decision) in its place, or adds it. */
  mergeLine: (line: StocktakeLine) => void;
  /** Reads the session and the lines changed since the last answer now, besides every two seconds. */
  refresh: () => void;
}

/**
 * The session `id` and its lines, read now and every two seconds while the page shows them, except
 * while `paused` is true. `setOffline` hears whether the server answered; other failures go to `onFailure`.
 */
export function useLineChanges(
  id: number,
  { onFailure, setOffline, paused }: { onFailure: OnFailure; setOffline: (offline: boolean) => void; paused: RefObject<boolean> },
): LineChanges {
  const { client } = useSession();
  const [session, setSession] = useState<Stocktake | null>(null);
  const [lines, setLines] = useState<StocktakeLine[]>([]);

  const mergeLine = useCallback((line: StocktakeLine) => {
    setLines((prev) => (prev.some((l) => l.id === line.id) ? prev.map((l) => (l.id === line.id ? line : l)) : [...prev, line]));
  }, []);

  /** The `after` of the last changes answered: the next refresh asks only for what changed since. */
  const after = useRef<string | undefined>(undefined);
  const refresh = useCallback(() => {
    client.stocktake
      .get(id)
      .then(async (s) => [s, s.status === 'open' ? await client.stocktake.changes(id, after.current) : null] as const)
      .then(
        ([s, changes]) => {
          setSession((old) => (old && JSON.stringify(old) === JSON.stringify(s) ? old : s));
          if (!changes) setLines([]);
          else {
            const since = after.current;
            setLines((prev) => {
              const next = since === undefined ? changes.lines : mergeChanged(prev, changes.lines);
              // Other lines on the server than here: some were removed (an undone scan); every line next time.
              const same = next.length === changes.line_count && next.reduce((sum, line) => sum + line.id, 0) === changes.line_id_sum;
              after.current = same ? changes.after : undefined;
              return next;
            });
          }
          setOffline(false);
        },
        (e: unknown) => {
          if (e instanceof ApiError && e.status === 0) setOffline(true);
          else onFailure(e);
        },
      );
  }, [client, id, onFailure, setOffline]);

  useEffect(() => {
    refresh();
    const timer = setInterval(() => {
      if (!paused.current) refresh();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh, paused]);

  return { session, lines, mergeLine, refresh };
}
