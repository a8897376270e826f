import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseTrustedProxies, type TrustedProxies } from './lib/trusted-proxies.ts';

/**
 * Configuration comes from the environment only, is validated once at start-up and is frozen.
 * Every problem is collected and reported together, so an operator fixes them in one go
 * (ARCHITECTURE §3: "every problem reported at once; no secret defaults").
 */
export type NodeEnv = 'development' | 'production' | 'test';
export type Role = 'all' | 'api' | 'worker';

export interface Config {
  readonly nodeEnv: NodeEnv;
  readonly role: Role;
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** A real PostgreSQL server; when null the embedded PGlite under `dataDir` is used. */
  readonly databaseUrl: string | null;
  readonly databasePoolSize: number;
  readonly redisUrl: string | null;
  readonly publicBaseUrl: string;
  readonly logLevel: string;
  /** Size of the synthetic panel seeded in development or when SIM_HEADS is set; 0 = none. */
  readonly simHeads: number;
  /**
   * Simulated answers a minute per live question (development only, or when set); 0 = simulator
   * off. The default fills an n=50 question in about two minutes.
   */
  readonly simAnswersPerMinute: number;
  /** Seed of the simulator's choices, for reproducible runs. */
  readonly simSeed: number;
  readonly rateLimit: {
    readonly perKeyPerMinute: number;
    readonly perIpPerMinute: number;
    /** OAuth dynamic client registrations one address may make in an hour (OAUTH_REGISTRATIONS_PER_HOUR; docs/agents.md). */
    readonly oauthRegistrationsPerHour: number;
    /** Prefix of the counters' keys in Redis, so deployments (or test runs) sharing a Redis stay apart. */
    readonly redisPrefix: string;
  };
  readonly bodyLimitBytes: number;
  /** Cloudflare Turnstile for the answer page; required in production. */
  readonly turnstile: { readonly secret: string | null; readonly siteKey: string | null; readonly verifyUrl: string };
  /** Anonymous answers through a link: per IP address (10 minutes) and per link (a minute). */
  readonly linkLimits: { readonly perIpPer10Minutes: number; readonly perLinkPerMinute: number };
  /** Seconds to wait for in-flight requests on SIGTERM before closing anyway. */
  readonly shutdownGraceSeconds: number;
  /**
   * How often parked waits read their questions again in case a change went unannounced (a NOTIFY
   * lost with a dropped LISTEN connection, the admin CLI on the embedded database); wait-parking.ts.
   */
  readonly waitRecheckSeconds: number;
  /** Proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES, lib/trusted-proxies.ts); false: none. */
  readonly trustedProxies: TrustedProxies;
  /**
   * HTTP server timeouts in milliseconds, so slow or silent clients cannot hold sockets forever:
   * the whole request (headers and body) must arrive within `requestMs` and its headers within
   * `headersMs` (a 408); an idle keep-alive connection closes after `keepAliveMs`; a socket with no
   * traffic at all while a request is open closes after `idleMs` (longer than wait's 25 s).
   */
  readonly httpTimeouts: { readonly requestMs: number; readonly headersMs: number; readonly keepAliveMs: number; readonly idleMs: number };
  /**
   * Optional OpenAI-compatible chat APIs (docs/insights.md): one that writes insights
   * (INSIGHTS_API_URL, INSIGHTS_MODEL, INSIGHTS_API_KEY) and one that translates them
   * (TRANSLATE_API_URL, TRANSLATE_MODEL, TRANSLATE_API_KEY). Null: the local engine, no translation.
   */
  readonly insights: { readonly api: ChatApiConfig | null; readonly translate: ChatApiConfig | null };
  /**
   * Outgoing mail (docs/mail.md): through the SMTP server at `smtpUrl` (SMTP_URL, smtp: or
   * smtps:, user and password in the URL), or, when null, into the in-memory dev mailbox
   * (development and test only). `from` is MAIL_FROM. Both are required in production.
   */
  readonly mail: { readonly smtpUrl: string | null; readonly from: string };
  /**
   * Portal sessions (docs/portal.md "Sessions"): a session ends `idleHours` after it was last used
   * (SESSION_IDLE_HOURS) and `maxDays` after sign-in whatever happens (SESSION_MAX_DAYS). `secret`
   * (SESSION_SECRET, 32 characters or more) signs the portal's CSRF cookie and tokens; required
   * in production, a random one per process otherwise (a restart then asks open forms again).
   */
  /**
   * Webhooks (docs/webhooks.md). `secretKeys` seal endpoints' signing secrets at rest
   * (WEBHOOK_SECRETS_KEY, then WEBHOOK_SECRETS_KEY_PREVIOUS while rotating; by default derived
   * from SESSION_SECRET, and a fixed development key outside production when neither is set).
   * `allowPrivate`/`allowHttp`: endpoints on this machine or private networks, and http:, are
   * allowed only outside production. `concurrency` (WEBHOOK_CONCURRENCY) attempts run at once per
   * worker process; due deliveries are looked for every `pollMs` (WEBHOOK_POLL_MS).
   */
  readonly webhooks: {
    readonly secretKeys: readonly string[];
    readonly allowPrivate: boolean;
    readonly allowHttp: boolean;
    readonly concurrency: number;
    readonly pollMs: number;
    readonly maxEndpoints: number;
    /** One attempt's whole exchange (WEBHOOK_TIMEOUT_SECONDS, default 10). */
    readonly timeoutMs: number;
    /** Attempts in flight to one endpoint at most, all workers together (WEBHOOK_PER_ENDPOINT, default 4). */
    readonly perEndpoint: number;
  };
  readonly sessions: { readonly idleHours: number; readonly maxDays: number; readonly secret: string; readonly secureCookies: boolean };
  /**
   * Who takes payment for credit packs (docs/payments.md): `stripe` (Stripe Checkout, required in
   * production) or `test` (the built-in test provider with its own pay/decline page; development
   * and test only). `stripe` holds the secret API key, the webhook signing secret and, for a local
   * stand-in, the API's address (STRIPE_API_URL); null with the test provider.
   */
  readonly payments: { readonly provider: 'stripe' | 'test'; readonly stripe: StripeConfig | null };
  /**
   * Uploaded files (docs/uploads.md): where their bytes live (UPLOAD_STORAGE): `postgres` (a
   * table every node shares; the default with DATABASE_URL) or `filesystem` (files under `dir`,
   * DATA_DIR/uploads: one node, or a shared volume; the default on the embedded database). The
   * defaults were chosen by measurement (docs/uploads.md "Storage").
   */
  readonly uploads: { readonly storage: UploadStorage; readonly dir: string };
  /**
   * Prometheus metrics (docs/operations.md "Metrics"), both off by default: `token`
   * (METRICS_TOKEN, 16 characters or more) serves GET /metrics on the public port to
   * `Authorization: Bearer <token>`; `port` (METRICS_PORT) serves it without a token on a listener
   * of its own at `host` (METRICS_HOST, default 127.0.0.1), whose reach is the protection.
   */
  readonly metrics: { readonly token: string | null; readonly port: number | null; readonly host: string };
}

export type UploadStorage = 'postgres' | 'filesystem';

export interface StripeConfig {
  readonly secretKey: string;
  readonly webhookSecret: string;
  /** Where the Stripe SDK sends its requests; null: Stripe's own API. */
  readonly apiUrl: string | null;
}

export interface ChatApiConfig {
  readonly url: string;
  readonly key: string | null;
  readonly model: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** A From header: `addr@host` or `Name <addr@host>`, on one line. */
const MAIL_FROM = /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;
const DEV_MAIL_FROM = 'Headcount <no-reply@localhost>';

/**
 * Seals webhook secrets at rest outside production when neither WEBHOOK_SECRETS_KEY nor
 * SESSION_SECRET is set: fixed, so secrets survive a restart of a development service, and not a
 * secret (production always has SESSION_SECRET).
 */
const DEV_WEBHOOK_SECRETS_KEY = 'headcount development webhook secrets key (not secret)';

/** A secret of SESSION_SECRET's length, made per process outside production (never written anywhere). */
const processSecret = () => randomBytes(32).toString('base64url');

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  };
  const url = (name: string, protocols: string[]): string | null => {
    const raw = read(name);
    if (raw === undefined) return null;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
        return null;
      }
      return raw;
    } catch {
      problems.push(`${name} is not a valid URL`);
      return null;
    }
  };

  /** A chat API is all or nothing: a URL and a model (the key is optional for local servers). */
  const chatApi = (prefix: string): ChatApiConfig | null => {
    const given = read(`${prefix}_API_URL`) !== undefined;
    const apiUrl = url(`${prefix}_API_URL`, ['https:', 'http:']);
    const model = read(`${prefix}_MODEL`);
    const key = read(`${prefix}_API_KEY`) ?? null;
    if (apiUrl && model) return { url: apiUrl.replace(/\/+$/, ''), key, model };
    if (given !== (model !== undefined) || (key && !given)) problems.push(`${prefix}_API_URL and ${prefix}_MODEL must be set together (${prefix}_API_KEY is optional)`);
    return null;
  };

  const nodeEnv = oneOf<NodeEnv>('NODE_ENV', ['development', 'production', 'test'], 'development');
  const role = oneOf<Role>('ROLE', ['all', 'api', 'worker'], 'all');
  const port = int('PORT', 8080, 0, 65535);
  const host = read('HOST') ?? (nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1');
  const dataDir = path.resolve(cwd, read('DATA_DIR') ?? './data');
  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = url('REDIS_URL', ['redis:', 'rediss:']);
  const publicBaseUrl = (url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const logLevel = read('LOG_LEVEL') ?? (nodeEnv === 'test' ? 'silent' : 'info');
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);

  const simDefault = nodeEnv === 'development' ? 2000 : 0;
  const simHeads = int('SIM_HEADS', simDefault, 0, 1_000_000);
  const simAnswersPerMinute = int('SIM_ANSWERS_PER_MINUTE', nodeEnv === 'development' ? 25 : 0, 0, 100_000);
  if (nodeEnv === 'production' && simAnswersPerMinute > 0) problems.push('SIM_ANSWERS_PER_MINUTE must not be set in production: simulated answers would pass for real ones');

  const proxies = parseTrustedProxies(read('TRUSTED_PROXIES'));
  if (proxies.problem) problems.push(proxies.problem);
  const trustedProxies = proxies.value;
  // Defaults: the request (60 s) and idle (60 s) limits are well over wait's 25 s; 72 s keep-alive
  // outlasts the 60 s idle timeout of common load balancers, so they close first (no 502 race).
  const httpTimeouts = {
    requestMs: int('REQUEST_TIMEOUT_SECONDS', 60, 1, 3600) * 1000,
    headersMs: int('HEADERS_TIMEOUT_SECONDS', 15, 1, 3600) * 1000,
    keepAliveMs: int('KEEP_ALIVE_TIMEOUT_SECONDS', 72, 1, 3600) * 1000,
    idleMs: int('IDLE_TIMEOUT_SECONDS', 60, 30, 3600) * 1000,
  };

  // SMTP_URL's own text is never echoed in a problem: it holds the password.
  const smtpUrl = url('SMTP_URL', ['smtp:', 'smtps:']);
  if (smtpUrl && !new URL(smtpUrl).hostname) problems.push('SMTP_URL must name a host (smtp://user:password@host:587)');
  const mailFrom = read('MAIL_FROM');
  if (mailFrom !== undefined && !MAIL_FROM.test(mailFrom)) problems.push(`MAIL_FROM must be an address like "Headcount <no-reply@example.com>" (got "${mailFrom}")`);

  const paymentsProvider = oneOf<'stripe' | 'test'>('PAYMENTS_PROVIDER', ['stripe', 'test'], nodeEnv === 'production' ? 'stripe' : 'test');
  if (nodeEnv === 'production' && paymentsProvider === 'test') problems.push('PAYMENTS_PROVIDER=test is refused in production: its pay button adds credits without any payment');
  let stripe: StripeConfig | null = null;
  if (paymentsProvider === 'stripe') {
    const secretKey = read('STRIPE_SECRET_KEY');
    const webhookSecret = read('STRIPE_WEBHOOK_SECRET');
    // The key itself is never echoed in a problem.
    if (secretKey === undefined || !/^(sk|rk)_(live|test)_[0-9A-Za-z]{8,}$/.test(secretKey)) problems.push('STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_live_…, sk_test_…, rk_…) when PAYMENTS_PROVIDER is stripe');
    if (webhookSecret === undefined || !/^whsec_[0-9A-Za-z+/=]{8,}$/.test(webhookSecret)) problems.push('STRIPE_WEBHOOK_SECRET must be the endpoint\'s signing secret (whsec_…) when PAYMENTS_PROVIDER is stripe');
    stripe = { secretKey: secretKey ?? '', webhookSecret: webhookSecret ?? '', apiUrl: url('STRIPE_API_URL', ['https:', 'http:']) };
  }

  const sessionSecret = read('SESSION_SECRET');
  if (sessionSecret !== undefined && sessionSecret.length < 32) problems.push('SESSION_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)');
  if (nodeEnv === 'production' && sessionSecret === undefined) problems.push('SESSION_SECRET is required in production: it signs the portal\'s CSRF tokens, and every process must share it');

  const webhookKey = read('WEBHOOK_SECRETS_KEY');
  const webhookPreviousKey = read('WEBHOOK_SECRETS_KEY_PREVIOUS');
  for (const [name, value] of [['WEBHOOK_SECRETS_KEY', webhookKey], ['WEBHOOK_SECRETS_KEY_PREVIOUS', webhookPreviousKey]] as const) {
    if (value !== undefined && value.length < 32) problems.push(`${name} must be at least 32 characters (e.g. \`openssl rand -base64 32\`)`);
  }
  if (webhookPreviousKey !== undefined && webhookKey === undefined) problems.push('WEBHOOK_SECRETS_KEY_PREVIOUS needs WEBHOOK_SECRETS_KEY (the key that replaces it)');
  // The first seals; every one opens. The key derived from SESSION_SECRET keeps opening what it
  // sealed after an explicit key is set (docs/webhooks.md "Safety").
  const sessionDerived = sessionSecret !== undefined ? `session secret: ${sessionSecret}` : DEV_WEBHOOK_SECRETS_KEY;
  const webhookSecretKeys = [...new Set([webhookKey ?? sessionDerived, ...(webhookPreviousKey ? [webhookPreviousKey] : []), sessionDerived])];

  // The token itself is never echoed in a problem.
  const metricsToken = read('METRICS_TOKEN') ?? null;
  if (metricsToken !== null && (metricsToken.length < 16 || /\s/.test(metricsToken))) problems.push('METRICS_TOKEN must be at least 16 characters, without spaces (e.g. `openssl rand -hex 16`)');
  const metricsPort = read('METRICS_PORT') === undefined ? null : int('METRICS_PORT', 0, 1, 65535);
  if (metricsPort !== null && metricsPort === port) problems.push(`METRICS_PORT must differ from PORT (both are ${port}): the metrics listener is a server of its own`);

  const config: Config = {
    nodeEnv,
    role,
    port,
    host,
    dataDir,
    databaseUrl,
    databasePoolSize: int('DATABASE_POOL_SIZE', 10, 1, 200),
    redisUrl,
    publicBaseUrl,
    logLevel,
    simHeads,
    simAnswersPerMinute,
    simSeed: int('SIM_SEED', 20261122, 0, 2 ** 31 - 1),
    rateLimit: {
      perKeyPerMinute: int('RATE_LIMIT_PER_KEY', 600, 1, 1_000_000),
      perIpPerMinute: int('RATE_LIMIT_PER_IP', 120, 1, 1_000_000),
      oauthRegistrationsPerHour: int('OAUTH_REGISTRATIONS_PER_HOUR', 20, 1, 1_000_000),
      redisPrefix: read('RATE_LIMIT_REDIS_PREFIX') ?? 'hc:rl:',
    },
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 256 * 1024, 1024, 50 * 1024 * 1024),
    turnstile: {
      secret: read('TURNSTILE_SECRET') ?? null,
      siteKey: read('TURNSTILE_SITE_KEY') ?? null,
      verifyUrl: url('TURNSTILE_VERIFY_URL', ['https:', 'http:']) ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    },
    linkLimits: {
      perIpPer10Minutes: int('LINK_ANSWERS_PER_IP', 30, 1, 1_000_000),
      perLinkPerMinute: int('LINK_ANSWERS_PER_LINK', 300, 1, 1_000_000),
    },
    shutdownGraceSeconds: int('SHUTDOWN_GRACE_SECONDS', 20, 0, 600),
    waitRecheckSeconds: int('WAIT_RECHECK_SECONDS', 5, 1, 60),
    trustedProxies,
    httpTimeouts,
    insights: { api: chatApi('INSIGHTS'), translate: chatApi('TRANSLATE') },
    mail: { smtpUrl, from: mailFrom ?? DEV_MAIL_FROM },
    sessions: {
      idleHours: int('SESSION_IDLE_HOURS', 7 * 24, 1, 90 * 24),
      maxDays: int('SESSION_MAX_DAYS', 30, 1, 365),
      secret: sessionSecret ?? processSecret(),
      // Secure cookies travel over https only: always in production, and wherever the public address is https.
      secureCookies: nodeEnv === 'production' || publicBaseUrl.startsWith('https:'),
    },
    payments: { provider: paymentsProvider, stripe },
    // UPLOAD_STORAGE's default, by measurement (docs/uploads.md "Storage"): files on the embedded
    // database (one node; bytea through PGlite costs the event loop), a table on a server (shared).
    uploads: { storage: oneOf<UploadStorage>('UPLOAD_STORAGE', ['postgres', 'filesystem'], databaseUrl ? 'postgres' : 'filesystem'), dir: path.join(dataDir, 'uploads') },
    metrics: { token: metricsToken, port: metricsPort === 0 ? null : metricsPort, host: read('METRICS_HOST') ?? '127.0.0.1' },
    webhooks: {
      secretKeys: webhookSecretKeys,
      allowPrivate: nodeEnv !== 'production',
      allowHttp: nodeEnv !== 'production',
      concurrency: int('WEBHOOK_CONCURRENCY', 16, 1, 1000),
      pollMs: int('WEBHOOK_POLL_MS', 1000, 50, 60_000),
      maxEndpoints: int('WEBHOOK_MAX_ENDPOINTS', 10, 1, 1000),
      timeoutMs: int('WEBHOOK_TIMEOUT_SECONDS', 10, 1, 30) * 1000,
      perEndpoint: int('WEBHOOK_PER_ENDPOINT', 4, 1, 100),
    },
  };
  if (config.sessions.idleHours > config.sessions.maxDays * 24) problems.push('SESSION_IDLE_HOURS must not be longer than SESSION_MAX_DAYS');

  if (httpTimeouts.headersMs > httpTimeouts.requestMs) problems.push('HEADERS_TIMEOUT_SECONDS must not be longer than REQUEST_TIMEOUT_SECONDS (the headers are part of the request)');
  if (nodeEnv === 'production' && (!config.turnstile.secret || !config.turnstile.siteKey)) {
    problems.push('TURNSTILE_SECRET and TURNSTILE_SITE_KEY are required in production: anonymous answers need the human check');
  }
  // Production mail must reach people: no dev mailbox, and a From address the operator chose.
  if (nodeEnv === 'production' && (read('SMTP_URL') === undefined || mailFrom === undefined)) {
    problems.push('SMTP_URL and MAIL_FROM are required in production: sign-in codes and support replies are sent by email');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}
