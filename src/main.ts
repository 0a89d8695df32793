// `npm start`. First starts OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set (src/tracing),
// then loads the server: the HTTP stack and the database drivers are evaluated only after the
// instrumentations are in place (a static import would evaluate them first).
import './tracing/preload.js';

await import('./server.js');
