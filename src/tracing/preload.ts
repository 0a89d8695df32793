/**
 * Imported first by src/main.ts. With OTEL_EXPORTER_OTLP_ENDPOINT set, starts OpenTelemetry
 * (src/tracing/sdk.ts) before the HTTP server and the database drivers are evaluated, so their
 * instrumentations see them; otherwise nothing of OpenTelemetry is loaded (sdk.ts requires it
 * only when called). An invalid
 * configuration is left for main() to report.
 */
import { ConfigError, loadConfig } from '../config.js';
import { startTracing } from './sdk.js';

let stop: (() => Promise<void>) | undefined;

function endpoint(): string | undefined {
  try {
    return loadConfig().otlpEndpoint;
  } catch (e) {
    if (e instanceof ConfigError) return undefined;
    throw e;
  }
}

// Synchronous on purpose: the modules main.ts imports next are evaluated only after this one.
if (endpoint()) stop = startTracing();

/** Sends the spans still buffered (graceful shutdown); a no-op when tracing is off. */
export async function stopTracing(): Promise<void> {
  await stop?.().catch(() => undefined);
}
