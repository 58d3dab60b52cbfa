// Where the database lives by default: one file in the per-user data directory, shared by the CLI
// and the desktop app. BARCODE_INVENTORY_DB overrides it; --db overrides both.
import path from 'node:path';
import envPaths from 'env-paths';

export const DB_ENV_VAR = 'BARCODE_INVENTORY_DB';

export function dataDirectory(): string {
  return envPaths('barcode-inventory', { suffix: '' }).data;
}

export function defaultDatabaseLocation(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[DB_ENV_VAR];
  return fromEnv && fromEnv.trim() !== '' ? fromEnv : path.join(dataDirectory(), 'inventory.db');
}
