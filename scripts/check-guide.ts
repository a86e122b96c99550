/** Usage: npx tsx scripts/check-guide.ts <guide.json>... — checks guide files, exit 1 on problems. */
import { readFileSync } from 'node:fs';
import { checkGuide } from '../lambdas/x12/guide-check';

let failed = false;
for (const file of process.argv.slice(2)) {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    console.log(`${file}: not readable JSON: ${(e as Error).message}`);
    failed = true;
    continue;
  }
  const result = checkGuide(doc);
  if (result.ok) {
    console.log(`${file}: ok`);
  } else {
    failed = true;
    console.log(`${file}: ${result.problems.length} problem(s)`);
    for (const p of result.problems) console.log(`  ${p.path}: ${p.message}`);
  }
}
process.exit(failed ? 1 : 0);
