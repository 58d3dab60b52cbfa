#!/usr/bin/env node
// Entry point of the `barcode-inventory` command. Node >= 22.18 runs the TypeScript sources directly
// (type stripping), so the CLI needs no build step. An older Node (or one with type stripping turned
// off) cannot even load them, so this file checks first and says so in one line; it is plain
// JavaScript and imports nothing of ours until then, which is also why its one text is not in
// shared/messages.ts (a TypeScript file such a Node cannot read). Node's compile cache keeps the
// stripped and compiled modules between runs (faster start, and the type stripper is not even
// loaded: ~20 MB of RSS less); `serve`, `import` and `csv import` restart themselves in place with their memory
// flags and environment first (server/launch/node-flags.ts).
import module from 'node:module';

const typeStripping = Boolean(process.features && process.features.typescript);
if (!typeStripping) {
  process.stderr.write(
    `barcode-inventory needs Node.js 22.18 or newer with TypeScript type stripping; this is Node.js ${process.version}${Number(process.versions.node.split('.')[0]) >= 22 ? ' with type stripping turned off' : ''}. ` +
      'Run it as `npx barcode-inventory …` in the project folder, which uses the Node.js 24 that `npm ci` installed.\n',
  );
  process.exit(1);
}
module.enableCompileCache?.();
const { nodeStartForCommand, restartWithNodeStart } = await import('../server/launch/node-flags.ts');
restartWithNodeStart(nodeStartForCommand(process.argv.slice(2)));
const { runCli } = await import('../server/cli/main.ts');
await runCli(process.argv);
