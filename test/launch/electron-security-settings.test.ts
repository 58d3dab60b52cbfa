// The Electron shell cannot run on the project's machines (its binary cannot be downloaded), so
// this reads its source and holds it to the security checklist of docs/SECURITY.md: a change that
// loosens one of these settings fails here and must update the checklist on purpose.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.ts';

const root = ROOT;
const shell = readFileSync(path.join(root, 'main/index.ts'), 'utf8');
const preload = readFileSync(path.join(root, 'main/preload.ts'), 'utf8');

describe('Electron shell security settings (docs/SECURITY.md checklist)', () => {
  it.each([
    ['context isolation', /contextIsolation:\s*true/],
    ['sandbox', /sandbox:\s*true/],
    ['no Node integration', /nodeIntegration:\s*false/],
    ['no Node in workers', /nodeIntegrationInWorker:\s*false/],
    ['web security', /webSecurity:\s*true/],
    ['no insecure content', /allowRunningInsecureContent:\s*false/],
    ['no webview tag', /webviewTag:\s*false/],
    ['permissions denied', /setPermissionRequestHandler\([^)]*\)\s*=>\s*callback\(false\)/],
    ['new windows denied', /setWindowOpenHandler\(\(\)\s*=>\s*\(\{\s*action:\s*'deny'\s*\}\)\)/],
    ['navigation limited', /'will-navigate'/],
    ['redirects limited', /'will-redirect'/],
    ['webviews refused', /'will-attach-webview',\s*\(event\)\s*=>\s*event\.preventDefault\(\)/],
    ['IPC sender validated', /senderFrame/],
    ['CSP set on the session', /onHeadersReceived[\s\S]*Content-Security-Policy/],
  ])('%s', (_name, pattern) => {
    expect(shell).toMatch(pattern);
  });

  it('sets nothing that loosens the defaults', () => {
    for (const loose of [
      /nodeIntegration:\s*true/,
      /contextIsolation:\s*false/,
      /sandbox:\s*false/,
      /webSecurity:\s*false/,
      /experimentalFeatures/,
      /enableBlinkFeatures/,
      /openExternal/,
      /loadFile\(/,
      /file:\/\//,
    ]) {
      expect(shell).not.toMatch(loose);
    }
  });

  it('the preload exposes one function through contextBridge and no Electron or Node object', () => {
    expect(preload).toMatch(/contextBridge\.exposeInMainWorld\(/);
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer\s*[,)]/);
    expect(preload).not.toMatch(/require\(|process\./);
  });
});
