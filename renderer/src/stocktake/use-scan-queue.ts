// A counting page's scans on their way to the server: queued and stored at once (scan-queue.ts), sent
// one at a time in order, and sent again a second later while the server cannot be reached or fails
// (5xx), so a scan made offline is counted once the server is back.
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { StocktakeLine } from '../../../shared/index.ts';
import { ApiError } from '../api/request-json.ts';
import { useSession } from '../api/session-context.tsx';
import { stocktakeTexts as texts } from '../common/texts.ts';
import type { Tone } from '../scan/scanner-mode.ts';
import type { OnFailure } from './on-failure.ts';
import { type QueuedScan, loadQueue, newScanId, saveQueue, terminalName } from './scan-queue.ts';

const RETRY_MS = 1000;

export interface ScanQueue {
  /** The scans the server does not have yet, oldest first. */
  pending: QueuedScan[];
  /** This tab's name, sent with each scan: the server's undo takes back this tab's last scan. */
  terminal: string;
  /** Queues a scan of `amount` and sends it; a GS1 scan gives its GTIN in every form, the first the catalogue has is sent. */
  add: (barcodes: string[], amount: number) => void;
  /** Takes the last scan still waiting out of the queue, unsent; undefined when none waits. */
  takeBackLast: () => QueuedScan | undefined;
}

interface ScanQueueOptions {
  onFailure: OnFailure;
  /** Says what the server made of a scan (and that it stopped answering), on the page's banner. */
  feedback: (tone: Tone, text: string) => void;
  /** Takes the line a scan's answer carries. */
  mergeLine: (line: StocktakeLine) => void;
  /** Whether the page shows the server as out of reach: a failed send says so on the banner only when it did not already. */
  offline: boolean;
  setOffline: (offline: boolean) => void;
  /** True while scans are being sent; the queue sets it. */
  sending: RefObject<boolean>;
}

/** The scan queue of the session `id`: what was stored on this device is sent at once, and anything queued after. */
export function useScanQueue(id: number, { onFailure, feedback, mergeLine, offline, setOffline, sending }: ScanQueueOptions): ScanQueue {
  const { client } = useSession();
  const [pending, setPending] = useState<QueuedScan[]>(() => loadQueue(id));
  const queue = useRef<QueuedScan[]>(pending);
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const terminal = useRef(terminalName());
  const offlineRef = useRef(false);
  offlineRef.current = offline;

  const setQueue = useCallback(
    (next: QueuedScan[]) => {
      queue.current = next;
      saveQueue(id, next);
      setPending(next);
    },
    [id],
  );

  /** A GS1 scan's barcode: the first form of its GTIN the catalogue has, fixed in the queue before sending. */
  const resolve = useCallback(
    async (scan: QueuedScan): Promise<QueuedScan> => {
      if (!scan.candidates || scan.candidates.length < 2) return scan;
      const { results } = await client.readStock(scan.candidates);
      const found = scan.candidates.find((b) => results.some((r) => r.barcode === b));
      const record = results.find((r) => r.barcode === found);
      const resolved: QueuedScan = {
        scan_id: scan.scan_id,
        barcode: record?.matched_barcode ?? found ?? scan.barcode,
        amount: scan.amount,
      };
      setQueue(queue.current.map((s) => (s.scan_id === scan.scan_id ? resolved : s)));
      return resolved;
    },
    [client, setQueue],
  );

  /** Sends queued scans one at a time, in order; on no answer, tries again shortly. */
  const flush = useCallback(async () => {
    if (sending.current) return;
    sending.current = true;
    try {
      while (queue.current.length > 0) {
        let next = queue.current[0]!;
        try {
          next = await resolve(next);
          const result = await client.stocktake.scan(id, {
            scan_id: next.scan_id,
            barcode: next.barcode,
            amount: next.amount,
            terminal: terminal.current,
          });
          mergeLine(result.line);
          setOffline(false);
          // The sound says what the server made of the scan: counted, or queued as unknown.
          if (result.line.known) feedback('ok', texts.counting(result.line.name ?? next.barcode, result.line.counted));
          else feedback('error', texts.unknownScan(next.barcode, result.line.counted));
        } catch (error) {
          if (error instanceof ApiError && (error.status === 0 || error.status >= 500)) {
            if (!offlineRef.current) feedback('error', texts.offlineNow);
            setOffline(true);
            clearTimeout(retry.current);
            retry.current = setTimeout(() => void flush(), RETRY_MS);
            return;
          }
          // Refused (a 4xx): said once, on the banner, and the scan is dropped from the queue; only a
          // revoked sign-in goes further (it signs out).
          if (error instanceof ApiError && error.unauthorized) onFailure(error);
          else feedback('error', texts.scanRefused(next.barcode, (error as Error).message));
        }
        setQueue(queue.current.filter((s) => s.scan_id !== next.scan_id));
      }
    } finally {
      sending.current = false;
    }
  }, [client, id, mergeLine, feedback, onFailure, setQueue, resolve, setOffline, sending]);

  useEffect(() => {
    void flush();
    return () => clearTimeout(retry.current);
  }, [flush]);

  const add = useCallback(
    (barcodes: string[], amount: number) => {
      const queued: QueuedScan = { scan_id: newScanId(), barcode: barcodes[0]!, amount };
      if (barcodes.length > 1) queued.candidates = barcodes;
      setQueue([...queue.current, queued]);
      void flush();
    },
    [setQueue, flush],
  );

  const takeBackLast = useCallback(() => {
    const last = queue.current.at(-1);
    if (last) setQueue(queue.current.slice(0, -1));
    return last;
  }, [setQueue]);

  return { pending, terminal: terminal.current, add, takeBackLast };
}
