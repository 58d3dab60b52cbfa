// The catalogue import's parse worker: reads the file a megabyte at a time, parses it and checks each
// item's own structure (catalogue-json-events.ts), and posts the values to the importing thread, which
// checks across items and writes. Parsing was a fifth of the import's CPU on its one thread; here it
// runs on another core at the same time. Runs only as a worker (catalogue-file-events.ts starts it,
// through catalogue-parse-worker-entry.js).
import { readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { CatalogueJsonEvents, encodeEvents } from './catalogue-json-events.ts';
import type { ParseWorkerData, ParseWorkerMessage } from './catalogue-file-events.ts';

const { fd, chunkBytes, ahead } = workerData as ParseWorkerData;
const port = parentPort!;
const post = (message: ParseWorkerMessage) => port.postMessage(message);

// Flow control: at most `ahead` batches posted and not yet taken, so the worker never runs far
// ahead of the writer (each batch is a chunk's values, a few megabytes at most).
let credits = ahead;
let wake: (() => void) | undefined;
const onTaken = () => {
  credits++;
  wake?.();
};
port.on('message', onTaken);
const credit = async () => {
  while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  credits--;
};

const events = new CatalogueJsonEvents();
const buffer = Buffer.allocUnsafe(chunkBytes);
let bytesRead = 0;
for (;;) {
  let n: number;
  try {
    n = readSync(fd, buffer, 0, chunkBytes, bytesRead);
  } catch (error) {
    post({ type: 'unreadable', message: (error as Error).message });
    break;
  }
  if (n === 0) {
    await credit();
    post({ type: 'end', events: encodeEvents(events.end()), bytesRead, syntaxProblem: events.syntaxProblem });
    break;
  }
  bytesRead += n;
  const batch = events.write(buffer.subarray(0, n));
  await credit();
  if (events.syntaxProblem) {
    post({ type: 'end', events: encodeEvents(batch), bytesRead, syntaxProblem: events.syntaxProblem });
    break;
  }
  post({ type: 'batch', events: encodeEvents(batch), bytesRead });
}
port.off('message', onTaken); // nothing more to wait for: the worker ends
