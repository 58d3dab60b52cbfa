// The values of a catalogue file, in file order, a chunk's worth at a time, parsed on another thread
// (catalogue-parse-worker.ts) while the caller checks and writes the ones before. The worker stays
// at most AHEAD chunks ahead of the caller, so memory stays bounded however large the file.
import { Worker } from 'node:worker_threads';
import type { EncodedEvents, JsonSyntaxProblem } from './catalogue-json-events.ts';

/** Bytes read and parsed at a time. */
const CHUNK_BYTES = 1 << 20;
/** Chunks the worker may have parsed and posted before the caller takes them. */
const AHEAD = 2;

export interface ParseWorkerData {
  fd: number;
  chunkBytes: number;
  ahead: number;
}

export type ParseWorkerMessage =
  | { type: 'batch'; events: EncodedEvents; bytesRead: number }
  /** The last batch: the file ended, or its JSON did not parse (then nothing after the problem was read). */
  | { type: 'end'; events: EncodedEvents; bytesRead: number; syntaxProblem: JsonSyntaxProblem | undefined }
  | { type: 'unreadable'; message: string };

/**
 * Parses the open file `fd` (from its start) in a worker and yields its messages in order; the last
 * one is an `end` or `unreadable`. The worker is stopped when the caller stops iterating, also early.
 */
export async function* catalogueFileEvents(fd: number): AsyncGenerator<ParseWorkerMessage, void, undefined> {
  const workerData: ParseWorkerData = { fd, chunkBytes: CHUNK_BYTES, ahead: AHEAD };
  const worker = new Worker(new URL('./catalogue-parse-worker-entry.js', import.meta.url), { workerData });
  const arrived: ParseWorkerMessage[] = [];
  let stopped: Error | undefined;
  let wake: (() => void) | undefined;
  worker.on('message', (message: ParseWorkerMessage) => {
    arrived.push(message);
    wake?.();
  });
  worker.on('error', (error) => {
    stopped ??= error;
    wake?.();
  });
  worker.on('exit', (code) => {
    stopped ??= new Error(`The catalogue's parse worker stopped (exit code ${code}) before the end of the file.`);
    wake?.();
  });
  try {
    for (;;) {
      // Messages posted before the worker stopped are still delivered first.
      while (arrived.length === 0 && !stopped) await new Promise<void>((resolve) => (wake = resolve));
      const message = arrived.shift();
      if (!message) throw stopped!;
      yield message;
      if (message.type !== 'batch') return;
      worker.postMessage(0); // taken: the worker may parse one more chunk
    }
  } finally {
    await worker.terminate();
  }
}
