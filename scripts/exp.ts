import { readFileSync } from 'node:fs';
import { BUILTIN_GUIDES } from '../lambdas/guides';
import { X12Reader } from '../lambdas/x12/envelope';
import { GuideRegistry } from '../lambdas/x12/guide-registry';
import { X12FileProcessor } from '../lambdas/x12/process';
import { X12Tokenizer } from '../lambdas/x12/tokenizer';

const reg = new GuideRegistry(BUILTIN_GUIDES);
const file = process.argv[2] ?? 'bench/data/850-10mb.edi';
const data = readFileSync(file);
const chunks: Buffer[] = [];
for (let o = 0; o < data.length; o += 1 << 20) chunks.push(data.subarray(o, o + (1 << 20)));
function time(label: string, run: () => void) {
  run();
  run();
  const s = process.hrtime.bigint();
  for (let i = 0; i < 3; i++) run();
  const sec = Number(process.hrtime.bigint() - s) / 1e9 / 3;
  console.log(label.padEnd(22), (data.length / 1048576 / sec).toFixed(1), 'MB/s');
}
time('tokenize', () => {
  let n = 0;
  const t = new X12Tokenizer({ segment: () => void n++ });
  for (const c of chunks) t.push(c);
  t.end();
});
time('envelope', () => {
  let n = 0;
  const r = new X12Reader({ transactionSet: () => void n++ });
  for (const c of chunks) r.push(c);
  r.end();
});
time('process no translate', () => {
  const p = new X12FileProcessor({ metadata: false, translate: false, selectGuide: (k) => reg.select(k) }, () => {});
  for (const c of chunks) p.push(c);
  p.end();
});
time('process translate', () => {
  const p = new X12FileProcessor({ metadata: false, selectGuide: (k) => reg.select(k) }, () => {});
  for (const c of chunks) p.push(c);
  p.end();
});
