// `npm run bench [-- --quick] [-- --skip-1gb]`: the engine benchmarks, then the workflow benchmarks,
// each given the same options (each ignores the ones it does not know).
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const run = (command, commandArgs) => {
  const result = spawnSync(command, commandArgs, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run(process.execPath, ['scripts/build.mjs']);
run(process.execPath, ['dist/bench.mjs', ...args]);
console.log('');
run(process.execPath, ['--import', 'tsx', 'bench/workflow.ts', ...args]);
