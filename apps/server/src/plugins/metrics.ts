/**
 * Prometheus metrics (issue 14, docs/decisions/042), with prom-client on a registry of this app's own:
 *
 * - `http_request_duration_seconds{method, route, status_code}`: a histogram of every answer, by
 *   route pattern (`/api/events/:eventId/attendees`, never the concrete path: no ids in labels;
 *   `unmatched` for 404s of unknown paths).
 * - `gatecheck_verify_verdicts_total{source, verdict, reason}`: verify and manual check-in verdicts,
 *   `reason` the denial reason or `none` for an approval.
 * - `gatecheck_check_ins_total{event_id, day}`: approvals per event day (a retry with the same
 *   scanId answers the approval again and counts again; the database stays the record).
 * - `gatecheck_db_pool_connections{state}`: the `pg` pool's total / idle / waiting (PostgreSQL only).
 * - prom-client's default process metrics (CPU, memory, event-loop lag, handles), prefixed `gatecheck_`.
 *
 * `GET /metrics` (outside /api, not in the OpenAPI document) answers them in the text format to
 * `Authorization: Bearer $METRICS_TOKEN`, 401 to anyone else; without METRICS_TOKEN it is a 404
 * like any unknown path.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ServiceError } from '../services/errors.ts';

/** Where Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

/** Connections of the `pg` pool at one moment. */
export interface PoolStats {
  total: number;
  idle: number;
  /** Queries waiting for a free connection. */
  waiting: number;
}

/** A verdict to count: where it came from and what it was. */
export interface CountedVerdict {
  source: 'scan' | 'manual';
  eventId: string;
  day: number;
  isValid: boolean;
  reason?: string | undefined;
}

/** What routes record (`app.metrics`). */
export interface AppMetrics {
  /** Counts a verify or manual check-in verdict, and an approval as a check-in of its event day. */
  countVerdict(verdict: CountedVerdict): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

/** Options: where the pool's numbers come from (undefined on PGlite). */
export interface MetricsOptions {
  poolStats?: (() => PoolStats) | undefined;
}

/** Whether `header` is `Bearer <token>`, compared in constant time. */
function carriesToken(header: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function metricsPlugin(app: FastifyInstance, options: MetricsOptions): Promise<void> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'gatecheck_' });

  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by route pattern.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const verdicts = new Counter({
    name: 'gatecheck_verify_verdicts_total',
    help: 'Verify and manual check-in verdicts, by source, verdict and denial reason (none for an approval).',
    labelNames: ['source', 'verdict', 'reason'] as const,
    registers: [registry],
  });
  const checkIns = new Counter({
    name: 'gatecheck_check_ins_total',
    help: 'Approved check-ins, by event and event day.',
    labelNames: ['event_id', 'day'] as const,
    registers: [registry],
  });
  const { poolStats } = options;
  if (poolStats) {
    new Gauge({
      name: 'gatecheck_db_pool_connections',
      help: 'PostgreSQL pool connections: total open, idle, and queries waiting for one.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const stats = poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }

  app.decorate('metrics', {
    countVerdict(verdict) {
      verdicts.inc({ source: verdict.source, verdict: verdict.isValid ? 'approved' : 'denied', reason: verdict.isValid ? 'none' : (verdict.reason ?? 'unknown') });
      if (verdict.isValid) checkIns.inc({ event_id: verdict.eventId, day: String(verdict.day) });
    },
  } satisfies AppMetrics);

  app.addHook('onResponse', async (request, reply) => {
    requestDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  const token = app.config.metricsToken;
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (token === undefined) throw new ServiceError('not_found', 'No such route.');
    if (!carriesToken(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new ServiceError('unauthenticated', 'Send Authorization: Bearer with the metrics token.');
    }
    reply.header('content-type', registry.contentType);
    reply.header('cache-control', 'no-store');
    return registry.metrics();
  });
}

/** Registers the metrics; see the module comment. Register before the routes (the onResponse hook). */
export default fp(metricsPlugin, { name: 'metrics', dependencies: ['errors'] });
