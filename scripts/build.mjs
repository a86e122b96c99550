// Bundles the command-line tool and the benchmarks with esbuild into dist/ (run by `npm install`
// through the prepare script, and by `npm run bench`).
import { existsSync } from 'node:fs';
import { build } from 'esbuild';

const entries = [
  { in: 'bin/edi.ts', out: 'edi' },
  { in: 'bench/bench.ts', out: 'bench' },
].filter((e) => existsSync(e.in));

await build({
  entryPoints: entries,
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  sourcemap: 'linked',
  logLevel: 'warning',
  // CommonJS dependencies bundled into ESM need a require()
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  // dependencies stay in node_modules (the tool runs inside the project)
  packages: 'external',
});
