#!/usr/bin/env node
// Entry point of the `barcode-inventory` command. Node >= 22.18 runs the TypeScript sources directly
// (type stripping), so the CLI needs no build step.
import { runCli } from '../server/cli/main.ts';

await runCli(process.argv);
