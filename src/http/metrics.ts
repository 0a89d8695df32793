import { createHash, timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { commonErrors } from '../common/errors.js';
import type { DbStats } from '../db/database.js';
import { ratesDocumentsRefused } from '../fx/url-rates.js';
import type { App } from './types.js';

/** Prometheus metrics at /metrics: request counts and latency by route, database statements, plus process metrics. */
export function registerMetrics(app: App, db: DbStats, bearerToken?: string, deadJobs?: () => Promise<number>): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Counter({
    name: 'corridor_db_statements_total',
    help: 'SQL statements sent to the database, transaction control included (statements sent together in one round trip count once); per request, divide by the requests of the same interval',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(db.statements);
    },
  });
  if (db.sqliteSeconds !== undefined)
    new Counter({
      name: 'corridor_db_sqlite_seconds_total',
      help: "Seconds the event loop spent inside SQLite (running statements, transaction control and commits, binding values and reading rows): the database's share of the server's CPU time",
      registers: [registry],
      collect() {
        this.reset();
        this.inc(db.sqliteSeconds!);
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
  const byRoute = new RouteMetrics();
  registry.registerMetric(byRoute.requests);
  registry.registerMetric(byRoute.duration);
  // Callback style: an async hook costs a promise per request.
  app.addHook('onResponse', (req, reply, done) => {
    // The route pattern, never the raw URL, so ids don't explode the label set.
    byRoute.observe(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
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

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface RouteSeries {
  labels: { method: string; route: string };
  byStatus: Map<number, number>;
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  inBucket: number[];
  sum: number;
  count: number;
}

/**
 * `corridor_http_requests_total` and `corridor_http_request_duration_seconds`, kept as plain
 * numbers per route and rendered in Prometheus' format at scrape. prom-client's labelled metrics
 * hash their label object on every observation: a tenth of the CPU of a cheap request.
 */
class RouteMetrics {
  private readonly series = new Map<string, RouteSeries>();

  observe(method: string, route: string, status: number, seconds: number) {
    const key = `${method} ${route}`;
    let s = this.series.get(key);
    if (!s) {
      s = { labels: { method, route }, byStatus: new Map(), inBucket: new Array<number>(BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    s.byStatus.set(status, (s.byStatus.get(status) ?? 0) + 1);
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]) i++;
    s.inBucket[i]++;
    s.sum += seconds;
    s.count++;
  }

  readonly requests = this.metric('corridor_http_requests_total', 'HTTP requests by route and status', 'counter', () =>
    [...this.series.values()].flatMap((s) => [...s.byStatus].map(([status, value]) => ({ labels: { ...s.labels, status: String(status) }, value }))),
  );

  readonly duration = this.metric('corridor_http_request_duration_seconds', 'HTTP request latency by route', 'histogram', () =>
    [...this.series.values()].flatMap((s) => {
      let cumulative = 0;
      const buckets = [...BUCKETS, '+Inf' as const].map((le, i) => {
        cumulative += s.inBucket[i];
        return { metricName: 'corridor_http_request_duration_seconds_bucket', labels: { le, ...s.labels }, value: cumulative };
      });
      return [
        ...buckets,
        { metricName: 'corridor_http_request_duration_seconds_sum', labels: s.labels, value: s.sum },
        { metricName: 'corridor_http_request_duration_seconds_count', labels: s.labels, value: s.count },
      ];
    }),
  );

  /** What a prom-client Registry needs of a metric: its name, and its samples on `get()`. */
  private metric(name: string, help: string, type: 'counter' | 'histogram', values: () => unknown[]): Metric {
    return { name, help, type, get: async () => ({ name, help, type, values: values(), aggregator: 'sum' }) } as unknown as Metric;
  }
}
