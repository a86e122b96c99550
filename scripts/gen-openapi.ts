// Writes the OpenAPI 3.1 document of the API to docs/openapi.json (`npm run openapi`), formatted by
// Biome as the rest of the project; test/unit/http/openapi.test.ts fails when the checked-in file
// differs from what the routes give.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { OPENAPI_FILE, renderOpenApiDocument, serviceOpenApiDocument } from '../lambdas/handlers/openapi-document';

const document = serviceOpenApiDocument();
writeFileSync(OPENAPI_FILE, renderOpenApiDocument(document));
const biome = spawnSync(process.execPath, ['node_modules/@biomejs/biome/bin/biome', 'format', '--write', OPENAPI_FILE], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (biome.status !== 0) throw new Error(`biome format ${OPENAPI_FILE} exited with ${biome.status}`);
const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
process.stdout.write(`${OPENAPI_FILE}: ${operations} operations, ${Object.keys(document.components.schemas).length} schemas\n`);
