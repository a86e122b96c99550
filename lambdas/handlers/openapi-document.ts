/**
 * The OpenAPI document of the API service as composed for Lambda (every route `createApiService`
 * registers), for scripts/gen-openapi.ts and the tests. Nothing is called: the AWS clients are
 * created but never used.
 */
import { createApiService } from './compose';
import { buildOpenApiDocument, type OpenApiDocument } from './http/openapi';
import type { Route } from './http/router';
import { silentLogger } from './log';

/** Where the document is checked in, relative to the project folder. */
export const OPENAPI_FILE = 'docs/openapi.json';

/** Every route of the API service, as the api function registers them. */
export function serviceRoutes(): readonly Route[] {
  const service = createApiService({
    resources: {
      configTable: 'config',
      stateTable: 'state',
      idempotencyTable: 'idempotency',
      artifactsBucket: 'artifacts',
      stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:outbound',
      eventBusName: 'events',
    },
    aws: { region: 'us-east-1', credentials: { accessKeyId: 'unused', secretAccessKey: 'unused' } },
    tokenSecret: 'unused-token-secret',
    logger: silentLogger,
  });
  return service.router.list();
}

export function serviceOpenApiDocument(): OpenApiDocument {
  return buildOpenApiDocument(serviceRoutes());
}

/** The document as checked in: two-space JSON and a final line break. */
export function renderOpenApiDocument(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
