// Loaded by src/main.ts once tracing (if configured) is running.
import { stopTracing } from './tracing/preload.js';
import { buildApp, API_PREFIX } from './app.js';
import { bootstrap, firstStartLines } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { createContainer } from './container.js';
import { startWorkers } from './workers/index.js';

/** config → database → migrations → bootstrap → HTTP server + workers; graceful shutdown. */
async function main() {
  const config = loadConfig();
  const container = await createContainer(config);
  if (container.secrets.source === 'this process only') {
    // Whatever it sealed could not be opened after a restart: refuse rather than lose data.
    process.stderr.write(`Corridor cannot keep a key-encryption key in ${config.dataDir}: set CORRIDOR_KEK or CORRIDOR_KEK_FILE (docs/operations.md)\n`);
    await container.close();
    process.exit(1);
  }
  const credentials = await bootstrap(container);
  const app = await buildApp(container, {
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.clientSecret', '*.privateKeyPem', '*.password'], censor: '[redacted]' },
    },
  });
  await app.listen({ host: config.host, port: config.port });
  const workers = config.workers ? startWorkers(container, app.log) : undefined;

  const base = `${config.publicUrl}${API_PREFIX}`;
  const lines = [
    '',
    `Corridor is running at ${base}`,
    `  API docs:  ${config.publicUrl}/docs   (OpenAPI: ${config.publicUrl}/openapi.json)`,
    `  Dashboard: ${config.publicUrl}/dashboard/`,
    `  Database:  ${container.db.dialect === 'sqlite' ? `SQLite in ${config.dataDir}` : 'PostgreSQL'}`,
  ];
  if (credentials) lines.push(...firstStartLines(credentials, { terminal: process.stdout.isTTY === true, dataDir: config.dataDir, base }));
  process.stdout.write(`${lines.join('\n')}\n\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // A request or a webhook attempt that will not finish must not keep the process alive:
    // whatever is not committed by then is rolled back by the database, as after a crash.
    setTimeout(() => {
      app.log.error('shutdown took longer than 15 s; exiting');
      process.exit(1);
    }, 15_000).unref();
    await app.close();
    await workers?.stop();
    await container.close();
    await stopTracing();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Corridor failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  }
  process.exit(1);
});
