import { readFileSync } from 'node:fs';
import { X12FileProcessor } from './lambdas/x12/process';

const [file, guideFile] = process.argv.slice(2);
const guide = JSON.parse(readFileSync(guideFile, 'utf8'));
const out: unknown[] = [];
const p = new X12FileProcessor({ guide, metadata: false } as never, (e: any) =>
  out.push({ guideId: e.guideId, st: e.transactionSetId, errors: e.errors, transaction: e.transaction }),
);
p.push(readFileSync(file));
const summary = p.end();
console.log(JSON.stringify({ out, errors: summary.errors }, null, 1));
