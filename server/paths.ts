// Where the data lives by default: one SQLite file in the per-user data directory, shared by the CLI
// and the desktop app. $BARCODE_INVENTORY_DATABASE (a PostgreSQL URL or a file) or
// $BARCODE_INVENTORY_DB (a file) override it; --database and --db override both.
import path from 'node:path';
import envPaths from 'env-paths';

export const DATABASE_ENV_VAR = 'BARCODE_INVENTORY_DATABASE';
export const DB_ENV_VAR = 'BARCODE_INVENTORY_DB';

export function dataDirectory(): string {
  return envPaths('barcode-inventory', { suffix: '' }).data;
}

export function defaultDatabaseFile(): string {
  return path.join(dataDirectory(), 'inventory.db');
}

export function defaultDatabaseLocation(env: NodeJS.ProcessEnv = process.env): string {
  for (const name of [DATABASE_ENV_VAR, DB_ENV_VAR]) {
    const value = env[name];
    if (value && value.trim() !== '') return value.trim();
  }
  return defaultDatabaseFile();
}
