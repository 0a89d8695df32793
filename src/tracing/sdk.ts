import type { ClientRequest, IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { redactUrl } from '../http/request-logger.js';

// Loaded with require, synchronously and only when tracing starts: nothing of OpenTelemetry is
// loaded otherwise, and the instrumentations are in place before main.ts's other imports run
// (an awaited import would let them run first).
const require = createRequire(import.meta.url);
type Api = typeof import('@opentelemetry/api');

/** Requests whose spans would only be noise: probes and scrapes. */
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

/** The span attributes that carry a request's URL, in the old and the current semantic conventions. */
const URL_ATTRIBUTES = ['http.target', 'http.url', 'url.full', 'url.path', 'url.query'];

/**
 * A span's URL as the request log shows it (redactUrl): a KYC link's token or an invitation's code
 * in a path is its page's whole credential, and traces go to more people than it was meant for.
 */
function redactSpanUrl(span: { setAttribute(k: string, v: string): unknown }, request: ClientRequest | IncomingMessage) {
  const raw = 'path' in request ? request.path : request.url;
  if (typeof raw !== 'string') return;
  const redacted = redactUrl(raw);
  if (redacted === raw) return;
  const [rawPath, rawQuery = ''] = raw.split(/\?(.*)/s);
  const [path, query = ''] = redacted.split(/\?(.*)/s);
  const attributes = (span as { attributes?: Record<string, unknown> }).attributes ?? {};
  for (const key of URL_ATTRIBUTES) {
    const value = attributes[key];
    if (typeof value !== 'string') continue;
    span.setAttribute(key, key === 'url.query' ? value.replace(rawQuery, query) : value.replace(rawPath, path).replace(rawQuery, query));
  }
}

/**
 * SQLite has no OpenTelemetry instrumentation: every statement run through better-sqlite3 gets a
 * client span here (its SQL text, never its values), as a child of whatever span is active.
 */
function instrumentSqlite(api: Api) {
  const { context, trace, SpanKind, SpanStatusCode } = api;
  const SQLite = require('better-sqlite3') as typeof import('better-sqlite3');
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  const tracer = trace.getTracer('corridor-sqlite');
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const original = proto[method] as (...args: unknown[]) => unknown;
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      if (!trace.getSpan(context.active())) return original.apply(this, args);
      const span = tracer.startSpan(`sqlite ${this.source.trimStart().split(/\s/, 1)[0].toLowerCase()}`, {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': 'sqlite', 'db.query.text': this.source.slice(0, 2000) },
      });
      try {
        return original.apply(this, args);
      } catch (e) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: e instanceof Error ? e.message : String(e) });
        throw e;
      } finally {
        span.end();
      }
    };
  }
}

/**
 * Spans for HTTP requests (server), PostgreSQL and SQLite statements, and outgoing fetches (webhook
 * deliveries, rates), exported over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT. The standard OTEL_*
 * variables (OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER, ...) apply.
 */
export function startTracing(): () => Promise<void> {
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || 'corridor',
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED.has((req.url ?? '').split('?')[0]),
        requestHook: (span, request) => redactSpanUrl(span, request),
      }),
      new PgInstrumentation(),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  instrumentSqlite(require('@opentelemetry/api') as Api);
  return () => sdk.shutdown();
}
