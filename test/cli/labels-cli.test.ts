// `barcode-inventory labels` as a user runs it: setup, codes, pdf, zpl and print (to a fake printer on
// loopback), and `serve --tls-cert/--tls-key` serving the UI and the API over HTTPS, which a phone's
// camera needs on the LAN.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelMessages } from '../../shared/index.ts';
import { ensureCommands } from '../support/debian-packages.ts';
import { runCli, startCliServer } from '../support/cli.ts';
import { createDatabase, databaseLocation, dropDatabase, onPostgres } from '../support/test-engine.ts';
import { exampleCatalogueFile, tempDir } from '../support/test-server.ts';

const dbOption = onPostgres() ? '--database' : '--db';
let dir: string;
let remove: () => void;
let db: string;

beforeAll(async () => {
  ({ dir, remove } = tempDir('bi-labels-cli-'));
  db = databaseLocation(dir);
  await createDatabase(db);
  expect((await runCli(['import', exampleCatalogueFile, dbOption, db])).code).toBe(0);
});
afterAll(async () => {
  await dropDatabase(db);
  remove();
});

const labels = (...args: string[]) => runCli(['labels', ...args, dbOption, db]);

describe('barcode-inventory labels', () => {
  it('sets up the prefix, makes codes as new items, and writes their labels as PDF and ZPL', async () => {
    expect((await labels('setup', '--account', 'north', '--prefix', '5')).stderr.trim()).toBe(labelMessages.badPrefix);
    const setup = await labels('setup', '--account', 'north', '--prefix', '21');
    expect(setup.stdout.trim()).toBe('Account "north": codes start with 21 (next number 1); label printer: none.');

    const codes = await labels('codes', '--account', 'north', '--name', 'Rice, loose', '--name', 'Shelf A1');
    expect(codes.code).toBe(0);
    const rows = codes.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'));
    expect(rows.map(([, name, barcode]) => [name, barcode])).toEqual([
      ['Rice, loose', '2100000000012'],
      ['Shelf A1', '2100000000029'],
    ]);

    const pdf = path.join(dir, 'labels.pdf');
    const written = await labels(
      'pdf',
      '--account',
      'north',
      '--items',
      rows.map(([id]) => id!).join(','),
      '--layout',
      'a4-3x7',
      '--out',
      pdf,
    );
    expect(written.code, written.stderr).toBe(0);
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');

    const zpl = await labels('zpl', '--account', 'north', '--barcodes', '2100000000012', '--copies', '2');
    expect(zpl.stdout.match(/\^XA/g)).toHaveLength(2);
    expect(zpl.stdout).toContain('^FDRice, loose^FS');

    const none = await labels('pdf', '--account', 'north', '--out', pdf);
    expect(none).toMatchObject({ code: 1, stderr: `${labelMessages.oneSource}\n` });
  });

  it('prints on the printer set up for the account', async () => {
    const jobs: string[] = [];
    const printer = net.createServer((socket) => {
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => jobs.push(data));
    });
    printer.listen(0, '127.0.0.1');
    await once(printer, 'listening');
    const where = `127.0.0.1:${(printer.address() as net.AddressInfo).port}`;
    expect((await labels('print', '--account', 'north', '--barcodes', '8690000000017')).stderr.trim()).toBe(
      labelMessages.noPrinter('north'),
    );
    expect((await labels('setup', '--account', 'north', '--printer', where)).stdout).toContain(`label printer: ${where}.`);
    const printed = await labels('print', '--account', 'north', '--barcodes', '8690000000017', '--warehouse', 'Main');
    expect(printed.stdout.trim()).toBe(`Sent 1 label to the printer at ${where}.`);
    await expect.poll(() => jobs.length).toBe(1);
    expect(jobs[0]).toContain('^FDMug^FS');
    printer.close();
  });
});

describe('serve over HTTPS', () => {
  it('serves the API with the certificate given, and refuses half of a certificate pair', async () => {
    await ensureCommands({ openssl: 'openssl' });
    const cert = path.join(dir, 'server.crt');
    const key = path.join(dir, 'server.key');
    await promisify(execFile)('openssl', [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert],
    ]);
    const half = await runCli(['serve', '--port', '0', '--tls-cert', cert, dbOption, db]);
    expect(half).toMatchObject({ code: 1, stderr: 'HTTPS needs both --tls-cert and --tls-key.\n' });

    const { child, url } = await startCliServer(['--tls-cert', cert, '--tls-key', key, dbOption, db]);
    try {
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      // Trusted through the certificate itself, as a phone trusts the shop's CA.
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        https
          .get(`${url}/api/v1/openapi.json`, { ca: readFileSync(cert) }, (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          })
          .on('error', reject);
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toHaveProperty('openapi');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
