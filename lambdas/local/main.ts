/**
 * `npm start`: the whole service on this machine, in one process.
 * PORT (default 3000), EDI_DATA_DIR (default .edi-local), EDI_DELIVERY_RETRY_SECONDS (default 360).
 */
import { jsonLogger } from '../handlers/log';
import { startLocalStack } from './stack';

async function main(): Promise<void> {
  const port = process.env.PORT === undefined ? 3000 : Number(process.env.PORT);
  const retry = process.env.EDI_DELIVERY_RETRY_SECONDS === undefined ? 360 : Number(process.env.EDI_DELIVERY_RETRY_SECONDS);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('PORT must be a port number');
  if (!Number.isFinite(retry) || retry < 0) throw new Error('EDI_DELIVERY_RETRY_SECONDS must be a number of seconds');
  const stack = await startLocalStack({
    port,
    dataDir: process.env.EDI_DATA_DIR ?? '.edi-local',
    deliveryRetrySeconds: retry,
    logger: jsonLogger,
  });
  process.stdout.write(
    `EDI Exchange is running at ${stack.url} (data in ${stack.dataDir}); create an API key with: npx edi keys create --name <name>\n`,
  );
  const shutdown = () => {
    void stack.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`edi-exchange: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
