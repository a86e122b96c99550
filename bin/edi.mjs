#!/usr/bin/env node
// The `edi` command: runs the bundle that `npm install` builds from bin/edi.ts.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const bundle = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'edi.mjs');
if (!existsSync(bundle)) {
  console.error('edi: the command is not built yet; run `npm install` (or `npm run build`) in the project folder');
  process.exit(2);
}
const { main } = await import(pathToFileURL(bundle).href);
process.exitCode = await main(process.argv.slice(2));
