import { createHash, timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { commonErrors } from '../common/errors.js';
import type { DbStats } from '../db/database.js';
import { ratesDocumentsRefused } from '../fx/rates.js';
import type { App } from './types.js';

/** Prometheus metrics at /metrics: request counts and latency by route, database statements, plus process metrics. */
export function registerMetrics(app: App, db: DbStats, bearerToken?: string, deadJobs?: () => Promise<number>): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Counter({
    name: 'corridor_db_statements_total',
    help: 'SQL statements sent to the database (transaction control included); per request, divide by the requests of the same interval',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(db.statements);
    },
  });
  registry.registerMetric(ratesDocumentsRefused);
  if (deadJobs)
    new Gauge({
      name: 'corridor_jobs_dead',
      help: 'Jobs that failed JOB_MAX_ATTEMPTS times and wait for an operator (npx corridor jobs dead / jobs retry)',
      registers: [registry],
      async collect() {
        this.set(await deadJobs());
      },
    });
  const requests = new Counter({
    name: 'corridor_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'corridor_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    // The route pattern, never the raw URL, so ids don't explode the label set.
    const route = req.routeOptions.url ?? 'unmatched';
    requests.inc({ method: req.method, route, status: String(reply.statusCode) });
    duration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
  // With METRICS_TOKEN set, only a scraper presenting it reads the metrics (compared by hash, in constant time).
  const expected = bearerToken ? createHash('sha256').update(bearerToken).digest() : undefined;
  app.get('/metrics', { config: { permission: 'PUBLIC' }, schema: { hide: true } as object }, async (req, reply) => {
    if (expected) {
      const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
      if (!m || !timingSafeEqual(createHash('sha256').update(m[1]).digest(), expected)) {
        reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
        throw commonErrors.UNAUTHORIZED({ reason: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' });
      }
    }
    reply.header('Content-Type', registry.contentType);
    return registry.metrics();
  });
  return registry;
}
