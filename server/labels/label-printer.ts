// Sends ZPL to a label printer's raw port (docs/LABELS.md): Zebra and compatible printers take a
// format on TCP port 9100 and print it; they answer nothing. Printed means every byte was handed to the
// printer's connection and it closed cleanly; a printer that cannot be reached is a 502 saying where.
import net from 'node:net';
import { labelMessages } from '../../shared/index.ts';
import { apiError } from '../errors.ts';

const CONNECT_AND_SEND_MS = 10_000;

/** host:port of a printer, as `labels setup --printer` takes it (an IPv6 address in brackets). */
export function parsePrinterAddress(text: string): { host: string; port: number } | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(text.trim());
  if (!match) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1] ?? match[2]!, port };
}

export async function sendToPrinter(printer: string, zpl: string): Promise<void> {
  const address = parsePrinterAddress(printer);
  if (!address) throw apiError(502, labelMessages.printerFailed(printer, 'not an address:port'));
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(address);
    const fail = (why: string) => {
      socket.destroy();
      reject(apiError(502, labelMessages.printerFailed(printer, why)));
    };
    socket.setTimeout(CONNECT_AND_SEND_MS, () => fail(`no answer within ${CONNECT_AND_SEND_MS / 1000} s`));
    socket.once('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
    // Printed once every byte is handed over: some printers keep their side open, and need not answer.
    socket.once('connect', () =>
      socket.end(zpl, 'utf8', () => {
        socket.setTimeout(0);
        // A printer that keeps its side open does not keep this connection for ever.
        setTimeout(() => socket.destroy(), 5_000).unref();
        resolve();
      }),
    );
  });
}
