import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readX12 } from '../lambdas/x12/envelope';

const root = '/work/shared/fixtures/x12';
const files: string[] = [];
const walk = (d: string) => {
  for (const f of readdirSync(d)) {
    const p = join(d, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (!/LICENSE|SOURCES/.test(f)) files.push(p);
  }
};
walk(root);
for (const f of files) {
  const issues: string[] = [];
  let sets = 0,
    ics = 0;
  readX12(readFileSync(f), {
    interchangeStart: () => {
      ics++;
    },
    transactionSet: (s) => {
      sets++;
      for (const i of s.issues) issues.push(i.code);
    },
    groupEnd: (g) => {
      for (const i of g.issues) issues.push(i.code);
    },
    interchangeEnd: (ic) => {
      for (const i of ic.issues) issues.push(i.code + ':' + i.element);
    },
    issue: (i) => issues.push('file:' + i.code),
  });
  console.log(f.replace(root + '/', '').padEnd(70), ics, sets, issues.slice(0, 6).join(','));
}
