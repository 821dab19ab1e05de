/**
 * Server configuration, read from the environment once and validated with zod. Nothing else in the
 * server reads `process.env`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import proxyAddr from '@fastify/proxy-addr';
import { z } from 'zod';

/** Default web bundle: apps/web/dist, found from this file's location (apps/server/src). */
const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** 30 days, in ms: how long a session lasts after sign-in (docs/decisions/003). */
export const DEFAULT_SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * Which peers' `X-Forwarded-*` headers the server believes (docs/decisions/085): none, the nearest
 * `hops` proxies (the socket's peer is hop 1), or peers at these addresses, CIDR ranges or
 * proxy-addr names (`loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustedProxies = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; addresses: string[] };

/** Most proxies we accept in a chain: more is a typo, not a deployment. */
const MAX_PROXY_HOPS = 10;

/**
 * `TRUST_PROXY`: `false` (default), a hop count (`1` for one nginx or Caddy in front) or a
 * comma-separated list of the proxies' addresses/CIDRs. `true` is refused: it would believe the
 * leftmost `X-Forwarded-For`, which any client writes itself (docs/decisions/085).
 */
const trustProxySetting = z.string().transform((value, context): TrustedProxies => {
  const setting = value.trim().toLowerCase();
  if (setting === 'false' || setting === 'no' || setting === '0') return { kind: 'none' };
  if (setting === 'true' || setting === 'yes') {
    context.addIssue({
      code: 'custom',
      message:
        'true would believe any X-Forwarded-For a client sends; set the number of proxies in front of the server (1 for one nginx or Caddy) or their addresses (e.g. 127.0.0.1 or 10.0.0.0/8)',
    });
    return z.NEVER;
  }
  if (/^\d+$/.test(setting)) {
    const hops = Number(setting);
    if (hops <= MAX_PROXY_HOPS) return { kind: 'hops', hops };
    context.addIssue({ code: 'custom', message: `at most ${MAX_PROXY_HOPS} proxies in front of the server` });
    return z.NEVER;
  }
  const addresses = setting.split(',').map((entry) => entry.trim()).filter(Boolean);
  const invalid = addresses.filter((entry) => !isProxyAddress(entry));
  if (addresses.length > 0 && invalid.length === 0) return { kind: 'addresses', addresses };
  context.addIssue({
    code: 'custom',
    message: `must be false, a number of proxies (1) or their addresses (127.0.0.1,10.0.0.0/8, loopback); not an address: ${invalid.join(', ') || value}`,
  });
  return z.NEVER;
});

/** Whether proxy-addr (Fastify's own parser of trustProxy) accepts `entry` as an address, CIDR or name. */
function isProxyAddress(entry: string): boolean {
  try {
    proxyAddr.compile(entry);
    return true;
  } catch {
    return false;
  }
}

/** The origins the native app's WebView sends (iOS `capacitor://localhost`, Android `https://localhost` or `http://localhost`). */
export const CAPACITOR_WEBVIEW_ORIGINS = ['capacitor://localhost', 'https://localhost', 'http://localhost'] as const;

/** A comma-separated list of origins (`scheme://host[:port]`, no path), normalised, duplicates dropped. */
const originList = z
  .string()
  .transform((value) => value.split(',').map((entry) => entry.trim()).filter(Boolean))
  .pipe(
    z.array(
      z
        .string()
        .refine((entry) => URL.canParse(entry) && /^[^/]*\/\/[^/]+\/?$/.test(entry), 'must be origins like https://app.example.com')
        .transform((entry) => {
          const url = new URL(entry);
          // Not url.origin: it is 'null' for non-web schemes such as capacitor://.
          return `${url.protocol}//${url.host}`;
        }),
    ),
  )
  .transform((origins) => [...new Set(origins)]);

/** `CORS_ORIGINS`: a list of origins, or `none` (no other site may call the API). */
const corsOriginsSetting = z.union([z.literal('none').transform((): string[] => []), originList]);

/**
 * `DEPLOYMENT` (docs/decisions/086): `development` (a laptop, `npm start`: demo data, the native
 * app's origins trusted by default) or `production` (a venue: no demo data, CORS origins set by the
 * operator). Unset: `production` when NODE_ENV is `production` (the Docker image), else
 * `development` — the one place NODE_ENV decides anything beyond the log format.
 */
export type Deployment = 'development' | 'production';

function deploymentOf(env: { DEPLOYMENT?: Deployment | undefined; NODE_ENV?: string | undefined }): Deployment {
  return env.DEPLOYMENT ?? (env.NODE_ENV === 'production' ? 'production' : 'development');
}

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  WEB_DIST_DIR: z.string().min(1).optional(),
  DEPLOYMENT: z.enum(['development', 'production']).optional(),
  SEED_DEMO: booleanFlag.optional(),
  TRUST_PROXY: trustProxySetting.default({ kind: 'none' }),
  HTTPS: booleanFlag.default(false),
  TLS_CERT: z.string().min(1).optional(),
  TLS_KEY: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_TTL_DAYS: z.coerce.number().positive().max(365).optional(),
  INIT_CWD: z.string().optional(),
  SMTP_URL: z
    .string()
    .refine((value) => URL.canParse(value) && /^smtps?:$/.test(new URL(value).protocol), 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Gatecheck <no-reply@localhost>'),
  PUBLIC_URL: z
    .string()
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'must be an http(s) URL')
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  // Default: the Capacitor app's WebView origins (decision 030), in development only (decision 086).
  CORS_ORIGINS: corsOriginsSetting.optional(),
  CSP_CONNECT_SRC: originList.default([]),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  RATE_LIMIT_IP_MAX: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_ACCOUNT_MAX: z.coerce.number().int().min(1).default(10),
  ALLOW_SIGNUP: booleanFlag.default(false),
  // The live door (docs/decisions/117): watchers asking within this many ms share one read.
  LIVE_DOOR_SHARE_MS: z.coerce.number().int().min(0).max(2_000).default(1_000),
  MIGRATE_ON_START: booleanFlag.default(true),
  // A shared secret for Prometheus; short ones are refused (a scraper's config holds it, nobody types it).
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces').optional(),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  NODE_ENV: z.string().optional(),
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(300).default(0),
  // 32 random bytes, base64 or base64url (`openssl rand -base64 32`): decision 089.
  SIGNING_KEY_SECRET: z
    .string()
    .refine((value) => /^[A-Za-z0-9+/_-]{43}=?$/.test(value) && Buffer.from(value, 'base64').length === 32, 'must be 32 random bytes in base64 (openssl rand -base64 32)')
    .transform((value) => Buffer.from(value, 'base64'))
    .optional(),
})
  .refine((env) => (env.TLS_CERT === undefined) === (env.TLS_KEY === undefined), {
    message: 'set both TLS_CERT and TLS_KEY, or neither (HTTPS=true alone generates a self-signed certificate)',
    path: ['TLS_KEY'],
  })
  .refine((env) => env.HTTPS || env.TLS_CERT === undefined, {
    message: 'TLS_CERT and TLS_KEY are used only with HTTPS=true',
    path: ['HTTPS'],
  });

/**
 * How the server speaks TLS (issue 15 item 10, docs/decisions/025): from the PEM files of an
 * operator's certificate, or with a self-signed certificate it generates and keeps in
 * `dataDir/tls/` for phones on the LAN.
 */
export type TlsSource = { kind: 'files'; certFile: string; keyFile: string } | { kind: 'self-signed'; dir: string };

/** The validated configuration. Paths are absolute. */
export interface Config {
  /** TCP port (0 = any free port). */
  port: number;
  host: string;
  /** Absolute folder for the embedded database (`pgdata`), the demo tickets and other files. */
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database in `dataDir/pgdata` is used. */
  databaseUrl: string | undefined;
  /** Maximum `pg` connections when `databaseUrl` is set. */
  databasePoolSize: number;
  /** Absolute folder of the built web app, served at `/` when it exists. */
  webDistDir: string;
  /** `DEPLOYMENT`: what the defaults below suit (docs/decisions/086). */
  deployment: Deployment;
  /**
   * `SEED_DEMO`: seed the demo organization, events, users and tickets when the database has no
   * users. Default: on in development, off in production.
   */
  seedDemo: boolean;
  /**
   * `TRUST_PROXY`: which peers' X-Forwarded-For/-Proto/-Host to believe (behind a reverse proxy):
   * the client address the rate limits count, https for the Secure cookie and the CSRF check.
   */
  trustProxy: TrustedProxies;
  /** `HTTPS=true`: serve TLS (browsers give a LAN address camera access only over https); undefined = plain http. */
  tls: TlsSource | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Session lifetime in ms. */
  sessionTtlMs: number;
  /** SMTP server for outgoing mail (`smtp://user:pass@host:587`); without it mail goes to `dataDir/outbox`. */
  smtpUrl: string | undefined;
  /** From header of outgoing mail. */
  mailFrom: string;
  /** The web app's public base URL, without a trailing slash: reset links point here. */
  publicUrl: string;
  /**
   * Browser origins allowed to call the API cross-origin with credentials (CORS), e.g. the Capacitor
   * app's. Default in development: CAPACITOR_WEBVIEW_ORIGINS; in production none, and the server
   * does not start until it is set (`none`: []; `assertServable`).
   */
  corsOrigins: string[];
  /** Whether `CORS_ORIGINS` was set (to a list or `none`). */
  isCorsOriginsSet: boolean;
  /** Extra origins the web app may connect to (CSP connect-src), e.g. an API host or the IP-lookup service. */
  cspConnectSrc: string[];
  /**
   * Rate limits (docs/decisions/019, 083), per window of `windowMs`: sign-in counts failed attempts
   * only, `accountMax` per account from one address (with a shorter first step and a longer last one,
   * services/rate-limits.ts `signInCounters`), 10 × `accountMax` per account from every address and
   * `ipMax` per client IP; register, forgot-password and change-password count every request,
   * `ipMax` per IP and (register, forgot-password) `accountMax` per email.
   */
  rateLimit: { windowMs: number; ipMax: number; accountMax: number };
  /** Whether anyone may create an account with POST /auth/register (`ALLOW_SIGNUP`, default off: a staff tool). */
  allowSignup: boolean;
  /**
   * The live door's figures read for one watcher are given to the others of the same event day on this
   * instance for this long (ms, `LIVE_DOOR_SHARE_MS`, default 1000, 0 = every ask reads): the database
   * reads one event day about once a second however many supervisors watch (docs/decisions/117).
   */
  liveDoorShareMs: number;
  /**
   * `MIGRATE_ON_START` (default true): the server applies pending migrations at start, under the
   * migration lock (docs/decisions/041). False: a release step runs `npm run db:migrate`; until it
   * has, GET /api/ready answers 503.
   */
  migrateOnStart: boolean;
  /** `METRICS_TOKEN`: GET /metrics answers Prometheus text to `Authorization: Bearer <it>`; unset: /metrics is 404. */
  metricsToken: string | undefined;
  /**
   * How log lines look: `pretty` (pino-pretty, for a developer's terminal) or `json` (one object a
   * line). `LOG_FORMAT=auto` (default) is pretty when stdout is a terminal and NODE_ENV is not
   * `production`, JSON otherwise.
   */
  logFormat: 'json' | 'pretty';
  /**
   * `SHUTDOWN_DELAY_SECONDS` (default 0), in ms: on SIGTERM, how long GET /api/ready answers 503 while
   * requests are still served, before draining starts, so a load balancer stops sending new ones first.
   */
  shutdownDelayMs: number;
  /**
   * `SIGNING_KEY_SECRET`: the 32-byte AES-256-GCM key the events' signing private keys are encrypted
   * with in the database (docs/decisions/089). Unset on the embedded database: a key generated once
   * and kept in `dataDir` (services/signing-key-vault.ts); unset with DATABASE_URL: signing fails.
   */
  signingKeySecret: Buffer | undefined;
}

/**
 * Reads the configuration from `env`. Relative `DATA_DIR` and `WEB_DIST_DIR` are resolved against
 * `INIT_CWD` (the folder where the user typed `npm start`; npm runs workspace scripts inside
 * apps/server) or else the current directory. `stdoutIsTerminal` decides `LOG_FORMAT=auto`
 * (default: whether this process's stdout is a TTY).
 * @throws Error naming every invalid variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, stdoutIsTerminal: boolean = process.stdout.isTTY === true): Config {
  // An empty variable (`DATABASE_URL=`) means "not set", as in most shells' .env habits.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  const baseDir = values.INIT_CWD ?? process.cwd();
  const deployment = deploymentOf(values);
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir: path.resolve(baseDir, values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    webDistDir: values.WEB_DIST_DIR ? path.resolve(baseDir, values.WEB_DIST_DIR) : DEFAULT_WEB_DIST_DIR,
    deployment,
    seedDemo: values.SEED_DEMO ?? deployment === 'development',
    trustProxy: values.TRUST_PROXY,
    tls: tlsSourceOf(values, baseDir),
    logLevel: values.LOG_LEVEL,
    sessionTtlMs: values.SESSION_TTL_DAYS ? values.SESSION_TTL_DAYS * 24 * 60 * 60 * 1000 : DEFAULT_SESSION_TTL_MS,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    // Never derived from the request's Host header: a forged Host would put a foreign site in reset links.
    publicUrl: values.PUBLIC_URL ?? `${values.HTTPS ? 'https' : 'http'}://localhost:${values.PORT}`,
    corsOrigins: values.CORS_ORIGINS ?? (deployment === 'development' ? [...CAPACITOR_WEBVIEW_ORIGINS] : []),
    isCorsOriginsSet: values.CORS_ORIGINS !== undefined,
    cspConnectSrc: values.CSP_CONNECT_SRC,
    rateLimit: {
      windowMs: values.RATE_LIMIT_WINDOW_SECONDS * 1000,
      ipMax: values.RATE_LIMIT_IP_MAX,
      accountMax: values.RATE_LIMIT_ACCOUNT_MAX,
    },
    allowSignup: values.ALLOW_SIGNUP,
    liveDoorShareMs: values.LIVE_DOOR_SHARE_MS,
    migrateOnStart: values.MIGRATE_ON_START,
    metricsToken: values.METRICS_TOKEN,
    logFormat: values.LOG_FORMAT === 'auto' ? (values.NODE_ENV !== 'production' && stdoutIsTerminal ? 'pretty' : 'json') : values.LOG_FORMAT,
    shutdownDelayMs: values.SHUTDOWN_DELAY_SECONDS * 1000,
    signingKeySecret: values.SIGNING_KEY_SECRET,
  };
}

/**
 * What serving needs beyond `loadConfig` (the admin CLI and the migration step do not): outside
 * development, `CORS_ORIGINS` set explicitly, so a venue decides which other sites may call the
 * API with credentials (docs/decisions/086).
 * @throws Error naming the variable and what to set.
 */
export function assertServable(config: Pick<Config, 'deployment' | 'isCorsOriginsSet'>): void {
  if (config.deployment === 'development' || config.isCorsOriginsSet) return;
  throw new Error(
    "Invalid configuration: CORS_ORIGINS: set it outside development (DEPLOYMENT=production or NODE_ENV=production): the sites allowed to call the API with credentials, e.g. the native app's capacitor://localhost,https://localhost (docs/native.md), or none",
  );
}

/** Where TLS comes from, given the validated variables; relative file paths resolve against `baseDir`. */
function tlsSourceOf(values: z.infer<typeof EnvSchema>, baseDir: string): TlsSource | undefined {
  if (!values.HTTPS) return undefined;
  if (values.TLS_CERT !== undefined && values.TLS_KEY !== undefined) {
    return { kind: 'files', certFile: path.resolve(baseDir, values.TLS_CERT), keyFile: path.resolve(baseDir, values.TLS_KEY) };
  }
  return { kind: 'self-signed', dir: path.join(path.resolve(baseDir, values.DATA_DIR), 'tls') };
}

/** The folder inside `dataDir` that holds the embedded PGlite database. */
export function pgliteDirOf(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'pgdata');
}

/** The folder inside `dataDir` where the demo seed writes tickets.csv and one QR PNG per ticket. */
export function demoTicketsDirOf(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'demo-tickets');
}
