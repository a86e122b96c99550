// scratch: translate a file with a guide file
import { readFileSync } from 'node:fs';
import { readX12 } from '../lambdas/x12/envelope';
import { translateSegments } from '../lambdas/x12/translator';

const [file, guideFile] = process.argv.slice(2) as [string, string];
const guide = JSON.parse(readFileSync(guideFile, 'utf8'));
readX12(readFileSync(file), {
  transactionSet(set) {
    const r = translateSegments(guide, set.segments, { delimiters: set.interchange.delimiters });
    console.log(JSON.stringify(r.json, null, 1).slice(0, Number(process.env.N ?? 3000)));
    for (const i of r.issues) console.log(i.code, i.segmentIndex, i.segmentId, i.element ?? '', i.message, i.path ?? '');
  },
});
