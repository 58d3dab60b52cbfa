// The storage engines the product knows, and which one serves a location. A further engine is one
// more provider here (engine-provider.ts says what a provider holds).
import type { EngineProvider } from './engine-provider.ts';
import { postgresProvider } from './postgres/postgres-provider.ts';
import { sqliteProvider } from './sqlite/sqlite-provider.ts';

/** Asked in this order; SQLite claims every location (a file path), so it comes last. */
export const engineProviders = [postgresProvider, sqliteProvider] as const;

export type EngineKind = (typeof engineProviders)[number]['kind'];

/** The provider of the engine that serves `location`: the first that claims it. */
export function providerFor(location: string): EngineProvider<EngineKind> {
  for (const provider of engineProviders) if (provider.matches(location)) return provider;
  throw new Error(`No storage engine serves ${location}.`);
}
