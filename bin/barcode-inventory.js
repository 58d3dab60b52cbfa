#!/usr/bin/env node
// Entry point of the `barcode-inventory` command. Node >= 22.18 runs the TypeScript sources directly
// (type stripping), so the CLI needs no build step. Node's compile cache keeps the stripped and
// compiled modules between runs (faster start, and the type stripper is not even loaded: ~20 MB of
// RSS less); `serve` and `import` restart themselves in place with their memory flags first
// (server/launch/node-flags.ts).
import module from 'node:module';

module.enableCompileCache?.();
const { nodeFlagsForCommand, restartWithNodeFlags } = await import('../server/launch/node-flags.ts');
restartWithNodeFlags(nodeFlagsForCommand(process.argv.slice(2)));
const { runCli } = await import('../server/cli/main.ts');
await runCli(process.argv);
