import type { FastifyReply, FastifyRequest } from 'fastify';
import underPressure from '@fastify/under-pressure';
import { Counter, Gauge, type Registry } from 'prom-client';
import { commonErrors } from '../common/errors.js';
import type { Config } from '../config.js';
import type { App } from './types.js';

/** Two of the plugin's one-second samples. */
const STARTUP_GRACE_MS = 2000;

/** Answered even under pressure: liveness, readiness and the metrics that show the pressure. */
const ALWAYS_ANSWERED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Load shedding (@fastify/under-pressure): when the event loop's delay (or heap, RSS, event-loop
 * utilisation, where set) passes its limit, new requests get 503 SERVICE_UNAVAILABLE with
 * Retry-After before any work is done for them (before authentication), so the requests already
 * admitted finish instead of everyone timing out together. Counted in
 * corridor_http_shed_requests_total; the measured delay is corridor_event_loop_delay_seconds.
 * `check` replaces the resource checks (tests force the pressure with it).
 */
export async function registerOverload(app: App, config: Config, registry: Registry, check?: () => Promise<boolean>) {
  const o = config.overload;
  const shed = new Counter({
    name: 'corridor_http_shed_requests_total',
    help: 'Requests refused with 503 because the node was overloaded, by cause',
    labelNames: ['cause'],
    registers: [registry],
  });
  const message = 'The server is overloaded; retry after the time in Retry-After';
  // The first delay sample after start also measures the start itself (building routes, the first
  // OpenAPI document): for two samples after the app is ready, a delay alone sheds nothing.
  let readyAt: number | undefined;
  app.addHook('onReady', async () => {
    readyAt = performance.now();
  });
  const warmingUp = () => readyAt === undefined || performance.now() - readyAt < STARTUP_GRACE_MS;
  await app.register(underPressure, {
    maxEventLoopDelay: o.maxEventLoopDelayMs,
    maxHeapUsedBytes: o.maxHeapUsedBytes,
    maxRssBytes: o.maxRssBytes,
    maxEventLoopUtilization: o.maxEventLoopUtilization,
    retryAfter: o.retryAfterSeconds,
    ...(check ? { healthCheck: async () => !(await check()), healthCheckInterval: 60_000 } : {}),
    // A value returned by the handler is sent as the answer (the plugin's types say void).
    pressureHandler: ((req: FastifyRequest, reply: FastifyReply, type: string) => {
      if (ALWAYS_ANSWERED.has(req.url.split('?')[0])) return undefined;
      if (type === 'eventLoopDelay' && warmingUp()) return undefined;
      shed.inc({ cause: type });
      reply.code(503).header('Retry-After', String(o.retryAfterSeconds));
      return commonErrors.SERVICE_UNAVAILABLE({ reason: 'overloaded', cause: type, retryAfterSeconds: o.retryAfterSeconds }, message).toBody();
    }) as unknown as () => void,
  });
  new Gauge({
    name: 'corridor_event_loop_delay_seconds',
    help: 'Mean event-loop delay over the last sample (the load-shedding measure)',
    registers: [registry],
    collect() {
      this.set(app.memoryUsage().eventLoopDelay / 1000);
    },
  });
  new Gauge({
    name: 'corridor_under_pressure',
    help: '1 while this node sheds load, else 0',
    registers: [registry],
    collect() {
      this.set(app.isUnderPressure() ? 1 : 0);
    },
  });
}

/**
 * Fastify's server timeouts from the config. Node enforces the request timeout only when the
 * headers timeout is not longer (so it is given to the server at construction, where Node derives
 * the headers timeout from it), and checks for late requests every `connectionsCheckingInterval`
 * (30 s by default): the check runs at least 4 times per request timeout, or a 10 s timeout
 * would be enforced after up to 30 s.
 */
export function serverTimeouts(t: Config['timeouts']) {
  const http =
    t.requestMs > 0
      ? {
          requestTimeout: t.requestMs,
          headersTimeout: Math.min(60_000, t.requestMs),
          connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(t.requestMs / 4))),
        }
      : { requestTimeout: 0 };
  return { requestTimeout: t.requestMs, connectionTimeout: t.connectionMs, keepAliveTimeout: t.keepAliveMs, http };
}
