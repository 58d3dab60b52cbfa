// The printable page of a badge (`person add`, `person badge`): the person's name, account and role
// above a Code 128 of the badge, sized for a card of 85 × 54 mm, that any scanner reads like a barcode.
// The badge itself is not printed as text: the bars are all a scanner needs, and text would only be
// easier to copy. The file is private (0600), and the command says to delete it once printed.
import { writeFileSync } from 'node:fs';
import { code128Svg } from '../../shared/index.ts';
import { PRIVATE_FILE_MODE, tightenMode } from '../store/private-files.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function badgePage(badge: string, person: { name: string; role: string }, account: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Badge: ${escape(person.name)}</title>
<style>
  @page { size: A4; margin: 15mm; }
  body { font-family: system-ui, sans-serif; margin: 0; }
  .card { width: 85mm; height: 54mm; box-sizing: border-box; border: 0.3mm dashed #888; padding: 4mm 5mm; display: flex; flex-direction: column; justify-content: space-between; }
  .name { font-size: 16pt; font-weight: 700; overflow-wrap: anywhere; }
  .meta { font-size: 9pt; color: #333; }
  .bars svg { display: block; max-width: 100%; height: 15mm; }
  .hint { font-size: 10pt; margin-top: 6mm; max-width: 120mm; }
  @media print { .hint { display: none; } }
  @media screen { body { margin: 12px; } }
</style>
</head>
<body>
<div class="card">
  <div><div class="name">${escape(person.name)}</div><div class="meta">${escape(account)} · ${escape(person.role.charAt(0).toUpperCase() + person.role.slice(1))}</div></div>
  <div class="bars">${code128Svg(badge, { moduleMm: 0.25, heightMm: 15 })}</div>
</div>
<p class="hint">Print this page at 100 % (no scaling), cut the card out along the dashed line, and delete this file: the badge signs in as this person on the account's shared scanners. A lost badge is revoked with <code>barcode-inventory person revoke-badge</code> or in the scanner UI's People view.</p>
</body>
</html>
`;
}

export function writeBadgePage(file: string, badge: string, person: { name: string; role: string }, account: string): void {
  writeFileSync(file, badgePage(badge, person, account), { mode: PRIVATE_FILE_MODE });
  tightenMode(file);
}
