import { createApp } from './app';
import { ConfigError, loadConfig } from './config';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.warn(
    `Quire listening on http://${config.host}:${port} (API ${config.publicUrl}/v1, docs ${config.publicUrl}/docs; ` +
      `event store: ${config.eventStore.driver}, read store: ${config.readStore.driver}, ` +
      `key store: ${config.keyStore.driver}, data: ${config.dataDir})`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
