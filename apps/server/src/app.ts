/**
 * Builds the Gatecheck HTTP app from plugins and routes (no listening; see server.ts). The API lives
 * under `/api` (contract `API_PREFIX`); the built web app, when present, is served at `/`.
 */
import { createServer as createHttpsServer } from 'node:https';
import type { Writable } from 'node:stream';
import { API_PREFIX, API_VERSION, API_VERSION_HEADER, OLDEST_APP_API_VERSION, OLDEST_APP_API_VERSION_HEADER } from '@gatecheck/contract';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config, TrustedProxies } from './config.ts';
import type { Db } from './db/client.ts';
import authPlugin from './plugins/auth.ts';
import dbPlugin from './plugins/db.ts';
import errorsPlugin, { answerFrameworkError } from './plugins/errors.ts';
import mailerPlugin from './plugins/mailer.ts';
import metricsPlugin, { type PoolStats } from './plugins/metrics.ts';
import openapiPlugin from './plugins/openapi.ts';
import rateLimitsPlugin from './plugins/rate-limits.ts';
import securityPlugin, { securityHeadersSetter } from './plugins/security.ts';
import webPlugin from './plugins/web.ts';
import accountRoutes from './routes/account/index.ts';
import authRoutes from './routes/auth/index.ts';
import { invitationJoinRoutes } from './routes/manage/team.ts';
import { deviceEnrollmentRoutes } from './routes/devices/index.ts';
import operationsRoutes from './routes/operations/index.ts';
import signedInRoutes from './routes/signed-in.ts';
import { ServiceError } from './services/errors.ts';

/** Largest request body accepted, in bytes (64 KiB); bigger bodies get 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The clock check-ins are decided by (event days, cut-offs); `() => new Date()` unless a test sets it. */
    clock: () => Date;
    /** Set by server.ts when a graceful shutdown begins: GET /api/ready answers 503 from then on. */
    lifecycle: { isStopping: boolean };
  }
}

/** What buildApp needs: the configuration and an open database (the caller closes it). */
export interface BuildAppOptions {
  config: Config;
  db: Db;
  /** Where log lines (JSON, one per line) go; default stdout. Tests capture them here. */
  logStream?: Writable;
  /** PEM certificate and key: serve https instead of http (`HTTPS=true`, src/tls.ts). */
  tls?: { cert: string; key: string };
  /** The clock for check-in decisions (default: the system clock). Tests put the door on a given day. */
  clock?: () => Date;
  /** The `pg` pool's connections, for the metrics (DatabaseHandle.poolStats; PostgreSQL only). */
  poolStats?: (() => PoolStats) | undefined;
}

/** Where secrets could sit in a logged request or answer; pino writes `[Redacted]` instead (never logged today: defence in depth). */
const REDACTED_LOG_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', 'req.body', 'res.body'];

/**
 * How a request appears in the log: method, path, host and client address. The query string is left
 * out: it can carry secrets (the password-reset link's `?token=…`, which opens the web app's reset
 * screen), and logs are kept and shared.
 */
function requestLogValue(request: FastifyRequest): { method: string; url: string; host: string; remoteAddress: string } {
  return { method: request.method, url: request.url.split('?')[0] ?? '', host: request.host, remoteAddress: request.ip };
}

/**
 * Fastify's request log lines, one per request instead of two: nothing when a request arrives
 * ('incoming request'), and, when its answer has been sent, one line with the request
 * (`requestLogValue`: no query string), the status and the time to answer (`responseTime`, ms),
 * with Fastify's `reqId`. Half the log writes of the verify path (docs/performance.md); every other
 * log line (errors, 404s) is Fastify's own.
 */
class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * Fastify's `trustProxy` for the configured proxies (docs/decisions/085). A hop count becomes a
 * function of the hop's position: Fastify's own numeric form trusts no peer at all, and `true`
 * would believe the leftmost X-Forwarded-For, which the client writes.
 */
function fastifyTrustProxyOf(trusted: TrustedProxies): false | string[] | ((address: string, hop: number) => boolean) {
  switch (trusted.kind) {
    case 'none':
      return false;
    case 'hops':
      return (_address, hop) => hop < trusted.hops;
    case 'addresses':
      return trusted.addresses;
  }
}

/** Fastify's keep-alive timeout for the servers it creates itself (ms); ours keeps it. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** An https server for Fastify (`HTTPS=true`), with the keep-alive timeout Fastify would set. */
function httpsServerFactory(tls: { cert: string; key: string }): FastifyServerFactory {
  return (handler) => {
    const server = createHttpsServer({ cert: tls.cert, key: tls.key }, handler);
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    return server;
  };
}

/**
 * Creates the Fastify app with every plugin and route registered (not yet listening).
 * Use `app.inject` in tests or `app.listen` to serve; `app.close()` does not close the database.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const setSecurityHeaders = securityHeadersSetter(config);
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            serializers: { req: requestLogValue },
            redact: REDACTED_LOG_PATHS,
            // A stream given by a test wins; otherwise pino-pretty on a developer's terminal (config.logFormat).
            ...(options.logStream
              ? { stream: options.logStream }
              : config.logFormat === 'pretty'
                ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } }
                : {}),
          },
    logController: new AccessLogController(),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: fastifyTrustProxyOf(config.trustProxy),
    // While stopping, a request that still reaches us on an open connection is finished like any
    // other (server.ts answers it with Connection: close) rather than refused with Fastify's own 503
    // body, which is not our { code, message } and would cost the gate a retry.
    return503OnClosing: false,
    // https through a server factory: Fastify's own `https` option would change the instance's type.
    serverFactory: options.tls ? httpsServerFactory(options.tls) : undefined,
    // A path the router cannot even decode (`/api/users/%ZZ`) is answered before any hook runs:
    // in our error shape, with the security headers (issue 15 item 16).
    frameworkErrors: (error, request, reply) => {
      setSecurityHeaders(request, reply);
      answerFrameworkError(error, reply);
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('clock', options.clock ?? (() => new Date()));
  app.decorate('lifecycle', { isStopping: false });
  // The API speaks JSON only: without Fastify's text/plain parser, other bodies get 415.
  app.removeContentTypeParser('text/plain');

  await app.register(errorsPlugin);
  await app.register(dbPlugin, { db });
  await app.register(authPlugin);
  await app.register(mailerPlugin);
  await app.register(securityPlugin, { setSecurityHeaders });
  // Both hook into route registration (rate limits, the OpenAPI document): before any route.
  await app.register(rateLimitsPlugin);
  await app.register(openapiPlugin);
  await app.register(metricsPlugin, { poolStats: options.poolStats });
  await app.register(
    async (api) => {
      // Every answer under /api says which contract this server speaks (docs/decisions/094), errors
      // included, so an installed app can tell a server too old or too new for it from a broken one.
      api.addHook('onRequest', (_request, reply, done) => {
        reply.header(API_VERSION_HEADER, String(API_VERSION));
        reply.header(OLDEST_APP_API_VERSION_HEADER, String(OLDEST_APP_API_VERSION));
        done();
      });
      // Open to everyone: signing in and out, signing up, account recovery; health and readiness probes.
      await api.register(operationsRoutes);
      await api.register(authRoutes);
      await api.register(invitationJoinRoutes);
      await api.register(accountRoutes);
      await api.register(deviceEnrollmentRoutes);
      // Everything else needs a session, checked by one hook before the request is validated.
      await api.register(signedInRoutes);
      // Any other path under /api is a 404 `{ code, message }` with every hook's headers, so no
      // other handler (the web app's static files) ever answers an /api path (`/api//users/me`).
      // Not OPTIONS: CORS preflights of the real routes are answered by @fastify/cors.
      api.route({
        method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        url: '/*',
        schema: { hide: true },
        handler: async () => {
          throw new ServiceError('not_found', 'No such route.');
        },
      });
    },
    { prefix: API_PREFIX },
  );
  await app.register(webPlugin, { webDistDir: config.webDistDir });
  return app;
}
