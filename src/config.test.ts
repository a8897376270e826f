import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const CWD = '/srv/headcount';
/** What production refuses to start without: the answer page's human check and outgoing mail. */
const PRODUCTION_NEEDS = { TURNSTILE_SECRET: 's', TURNSTILE_SITE_KEY: 'k', SMTP_URL: 'smtp://mailer:pw@smtp.example.org:587', MAIL_FROM: 'Headcount <no-reply@example.org>', SESSION_SECRET: 'x'.repeat(32), STRIPE_SECRET_KEY: 'sk_live_abcdefgh12', STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh12' };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, CWD);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig defaults', () => {
  it('runs in development on the embedded database with no environment at all', () => {
    const config = loadConfig({}, CWD);
    expect(config).toMatchObject({
      nodeEnv: 'development',
      role: 'all',
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.join(CWD, 'data'),
      databaseUrl: null,
      databasePoolSize: 10,
      redisUrl: null,
      publicBaseUrl: 'http://localhost:8080',
      logLevel: 'info',
      simHeads: 2000,
      rateLimit: { perKeyPerMinute: 600, perIpPerMinute: 120 },
      bodyLimitBytes: 256 * 1024,
      shutdownGraceSeconds: 20,
    });
  });

  it('is frozen', () => {
    const config = loadConfig({}, CWD);
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('is quiet and seeds no simulated panel under test', () => {
    expect(loadConfig({ NODE_ENV: 'test' }, CWD)).toMatchObject({ logLevel: 'silent', simHeads: 0 });
  });

  it('listens on every interface and seeds nothing in production', () => {
    expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION_NEEDS }, CWD)).toMatchObject({ host: '0.0.0.0', simHeads: 0, logLevel: 'info' });
  });

  it('refuses production without the human check or with simulated answers', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25', MAIL_FROM: 'a@b.c' }, CWD)).toThrow(/TURNSTILE_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', ...PRODUCTION_NEEDS, SIM_ANSWERS_PER_MINUTE: '5' }, CWD)).toThrow(/SIM_ANSWERS_PER_MINUTE/);
  });

  it('derives the public base URL from the port and trims a trailing slash from a given one', () => {
    expect(loadConfig({ PORT: '3000' }, CWD).publicBaseUrl).toBe('http://localhost:3000');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.org//' }, CWD).publicBaseUrl).toBe('https://api.example.org');
  });

  it('resolves DATA_DIR against the working directory and treats blank values as unset', () => {
    expect(loadConfig({ DATA_DIR: 'var/hc' }, CWD).dataDir).toBe(path.join(CWD, 'var/hc'));
    expect(loadConfig({ DATA_DIR: '/abs/dir' }, CWD).dataDir).toBe('/abs/dir');
    expect(loadConfig({ PORT: '  ', DATABASE_URL: '' }, CWD)).toMatchObject({ port: 8080, databaseUrl: null });
  });

  it('reads every setting it is given', () => {
    const config = loadConfig(
      {
        NODE_ENV: 'production',
        TURNSTILE_SECRET: 'secret',
        TURNSTILE_SITE_KEY: 'site',
        SMTP_URL: 'smtps://mailer:pw@smtp.example.org:465',
        MAIL_FROM: 'Headcount <no-reply@example.org>',
        ROLE: 'worker',
        PORT: '9000',
        HOST: '10.0.0.1',
        DATABASE_URL: 'postgres://hc@db:5432/hc',
        DATABASE_POOL_SIZE: '20',
        REDIS_URL: 'redis://cache:6379',
        PUBLIC_BASE_URL: 'https://headcount.example.org',
        LOG_LEVEL: 'warn',
        SIM_HEADS: '50',
        RATE_LIMIT_PER_KEY: '1000',
        RATE_LIMIT_PER_IP: '10',
        BODY_LIMIT_BYTES: '4096',
        SHUTDOWN_GRACE_SECONDS: '5',
        SESSION_SECRET: 'a-session-secret-of-at-least-32-chars',
        SESSION_IDLE_HOURS: '12',
        SESSION_MAX_DAYS: '14',
        STRIPE_SECRET_KEY: 'sk_live_51abcdefgh',
        STRIPE_WEBHOOK_SECRET: 'whsec_abcdefgh',
        STRIPE_API_URL: 'http://127.0.0.1:12111',
      },
      CWD,
    );
    expect(config).toMatchObject({
      sessions: { idleHours: 12, maxDays: 14, secret: 'a-session-secret-of-at-least-32-chars', secureCookies: true },
      payments: { provider: 'stripe', stripe: { secretKey: 'sk_live_51abcdefgh', webhookSecret: 'whsec_abcdefgh', apiUrl: 'http://127.0.0.1:12111' } },
      nodeEnv: 'production',
      role: 'worker',
      port: 9000,
      host: '10.0.0.1',
      databaseUrl: 'postgres://hc@db:5432/hc',
      databasePoolSize: 20,
      redisUrl: 'redis://cache:6379',
      publicBaseUrl: 'https://headcount.example.org',
      logLevel: 'warn',
      simHeads: 50,
      rateLimit: { perKeyPerMinute: 1000, perIpPerMinute: 10 },
      bodyLimitBytes: 4096,
      shutdownGraceSeconds: 5,
      mail: { smtpUrl: 'smtps://mailer:pw@smtp.example.org:465', from: 'Headcount <no-reply@example.org>' },
    });
  });
});

describe('loadConfig problems', () => {
  it('reports every problem at once in one ConfigError', () => {
    const problems = problemsOf({
      NODE_ENV: 'staging',
      ROLE: 'boss',
      PORT: 'eighty',
      DATABASE_URL: 'mysql://db/hc',
      DATABASE_POOL_SIZE: '0',
      REDIS_URL: 'not a url',
      PUBLIC_BASE_URL: 'ftp://files',
      LOG_LEVEL: 'loud',
      SIM_HEADS: '-1',
      RATE_LIMIT_PER_KEY: '1.5',
      RATE_LIMIT_PER_IP: '0',
      BODY_LIMIT_BYTES: '10',
      SHUTDOWN_GRACE_SECONDS: '601',
    });
    const names = [
      'NODE_ENV', 'ROLE', 'PORT', 'DATABASE_URL', 'DATABASE_POOL_SIZE', 'REDIS_URL', 'PUBLIC_BASE_URL', 'LOG_LEVEL',
      'SIM_HEADS', 'RATE_LIMIT_PER_KEY', 'RATE_LIMIT_PER_IP', 'BODY_LIMIT_BYTES', 'SHUTDOWN_GRACE_SECONDS',
    ];
    expect(problems).toHaveLength(names.length);
    for (const name of names) expect(problems.some((p) => p.startsWith(`${name} `)), name).toBe(true);
  });

  it('lists the problems in its message, one a line, and says what was given', () => {
    let error: ConfigError | null = null;
    try {
      loadConfig({ PORT: '70000', ROLE: 'boss' }, CWD);
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error?.name).toBe('ConfigError');
    expect(error?.message).toBe(
      'Invalid configuration:\n  - ROLE must be one of all, api, worker (got "boss")\n  - PORT must be an integer from 0 to 65535 (got "70000")',
    );
  });

  it('names the allowed protocols of a URL', () => {
    expect(problemsOf({ DATABASE_URL: 'mysql://db/hc' })).toEqual(['DATABASE_URL must use postgres: or postgresql: (got "mysql:")']);
    expect(problemsOf({ REDIS_URL: 'cache:6379x' })).toHaveLength(1);
  });
});

describe('TRUSTED_PROXIES and HTTP timeouts', () => {
  it('trusts no proxy by default in every NODE_ENV, so X-Forwarded-For is ignored', () => {
    for (const env of [{}, { NODE_ENV: 'test' }, { NODE_ENV: 'production', ...PRODUCTION_NEEDS }]) {
      expect(loadConfig(env, CWD).trustedProxies).toBe(false);
    }
  });

  it('reads a hop count or a list of addresses and ranges', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '1' }, CWD).trustedProxies).toBe(1);
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8,127.0.0.1' }, CWD).trustedProxies).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('refuses a value it cannot read, with the other problems', () => {
    const problems = problemsOf({ TRUSTED_PROXIES: 'true', PORT: 'x' });
    expect(problems).toHaveLength(2);
    expect(problems.find((p) => p.startsWith('TRUSTED_PROXIES '))).toContain('"true"');
  });

  it('has timeouts longer than a 25 s wait, and a keep-alive longer than load balancers\' 60 s', () => {
    expect(loadConfig({}, CWD).httpTimeouts).toEqual({ requestMs: 60_000, headersMs: 15_000, keepAliveMs: 72_000, idleMs: 60_000 });
    expect(loadConfig({ REQUEST_TIMEOUT_SECONDS: '2', HEADERS_TIMEOUT_SECONDS: '1', KEEP_ALIVE_TIMEOUT_SECONDS: '5', IDLE_TIMEOUT_SECONDS: '30' }, CWD).httpTimeouts).toEqual({ requestMs: 2000, headersMs: 1000, keepAliveMs: 5000, idleMs: 30_000 });
  });

  it('refuses timeouts of 0, an idle timeout that would cut a wait, and headers longer than the request', () => {
    const problems = problemsOf({ REQUEST_TIMEOUT_SECONDS: '0', KEEP_ALIVE_TIMEOUT_SECONDS: '0', IDLE_TIMEOUT_SECONDS: '10' });
    for (const name of ['REQUEST_TIMEOUT_SECONDS', 'KEEP_ALIVE_TIMEOUT_SECONDS', 'IDLE_TIMEOUT_SECONDS']) expect(problems.some((p) => p.startsWith(`${name} `)), name).toBe(true);
    expect(problemsOf({ REQUEST_TIMEOUT_SECONDS: '10', HEADERS_TIMEOUT_SECONDS: '20' })).toEqual([
      'HEADERS_TIMEOUT_SECONDS must not be longer than REQUEST_TIMEOUT_SECONDS (the headers are part of the request)',
    ]);
  });
});

describe('SMTP_URL and MAIL_FROM', () => {
  it('keeps mail in the dev mailbox with a local From address when neither is set (development and test)', () => {
    expect(loadConfig({}, CWD).mail).toEqual({ smtpUrl: null, from: 'Headcount <no-reply@localhost>' });
    expect(loadConfig({ NODE_ENV: 'test' }, CWD).mail).toEqual({ smtpUrl: null, from: 'Headcount <no-reply@localhost>' });
  });

  it('reads smtp: and smtps: URLs and a From address with or without a name', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://u:p@mail.example.org:587', MAIL_FROM: 'no-reply@example.org' }, CWD).mail).toEqual({ smtpUrl: 'smtp://u:p@mail.example.org:587', from: 'no-reply@example.org' });
    expect(loadConfig({ SMTP_URL: ' smtps://mail.example.org:465 ', MAIL_FROM: 'Headcount Support <help@example.org>' }, CWD).mail).toEqual({ smtpUrl: 'smtps://mail.example.org:465', from: 'Headcount Support <help@example.org>' });
  });

  it('refuses another protocol, a URL with no host and a From that is not an address, all at once, never echoing the URL (it holds the password)', () => {
    expect(problemsOf({ SMTP_URL: 'http://u:secret@mail:25', MAIL_FROM: 'Headcount', PORT: 'x' })).toEqual([
      'PORT must be an integer from 0 to 65535 (got "x")',
      'SMTP_URL must use smtp: or smtps: (got "http:")',
      'MAIL_FROM must be an address like "Headcount <no-reply@example.com>" (got "Headcount")',
    ]);
    expect(problemsOf({ SMTP_URL: 'smtp://' })).toEqual(['SMTP_URL must name a host (smtp://user:password@host:587)']);
    expect(problemsOf({ SMTP_URL: 'smtp://u:secret@ bad host' })).toEqual(['SMTP_URL is not a valid URL']);
    expect(problemsOf({ MAIL_FROM: 'Headcount <no-reply@example.org' })).toHaveLength(1);
  });

  it('refuses production without SMTP_URL or without MAIL_FROM: there is no dev mailbox there', () => {
    const { SMTP_URL, MAIL_FROM, ...turnstile } = PRODUCTION_NEEDS;
    const line = 'SMTP_URL and MAIL_FROM are required in production: sign-in codes and support replies are sent by email';
    expect(problemsOf({ NODE_ENV: 'production', ...turnstile })).toEqual([line]);
    expect(problemsOf({ NODE_ENV: 'production', ...turnstile, SMTP_URL })).toEqual([line]);
    expect(problemsOf({ NODE_ENV: 'production', ...turnstile, MAIL_FROM })).toEqual([line]);
    // With nothing at all: the human check, mail, the session secret and Stripe's two keys.
    expect(problemsOf({ NODE_ENV: 'production' })).toHaveLength(5);
    expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION_NEEDS }, CWD).mail).toEqual({ smtpUrl: SMTP_URL, from: MAIL_FROM });
  });
});

describe('sessions and payments', () => {
  it('defaults: a week idle, 30 days at most, a random secret per process, the test provider outside production', () => {
    const a = loadConfig({}, CWD);
    const b = loadConfig({}, CWD);
    expect(a.sessions).toMatchObject({ idleHours: 168, maxDays: 30, secureCookies: false });
    expect(a.sessions.secret.length).toBeGreaterThanOrEqual(32);
    expect(a.sessions.secret).not.toBe(b.sessions.secret);
    expect(a.payments).toEqual({ provider: 'test', stripe: null });
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://hc.example.org' }, CWD).sessions.secureCookies).toBe(true);
  });

  it('refuses production without a session secret, with the test provider, or without Stripe keys; never echoes a key', () => {
    const { SESSION_SECRET, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, ...rest } = PRODUCTION_NEEDS;
    const problems = problemsOf({ NODE_ENV: 'production', ...rest, STRIPE_SECRET_KEY: 'pk_live_not_secret_key' });
    expect(problems).toContain("SESSION_SECRET is required in production: it signs the portal's CSRF tokens, and every process must share it");
    expect(problems.some((p) => p.startsWith('STRIPE_SECRET_KEY must be'))).toBe(true);
    expect(problems.some((p) => p.startsWith('STRIPE_WEBHOOK_SECRET must be'))).toBe(true);
    expect(problems.join('\n')).not.toContain('pk_live_not_secret_key');
    expect(problemsOf({ NODE_ENV: 'production', ...PRODUCTION_NEEDS, PAYMENTS_PROVIDER: 'test' })).toEqual([
      'PAYMENTS_PROVIDER=test is refused in production: its pay button adds credits without any payment',
    ]);
    expect(problemsOf({ SESSION_SECRET: 'short', SESSION_IDLE_HOURS: '800', SESSION_MAX_DAYS: '30' })).toEqual([
      'SESSION_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)',
      'SESSION_IDLE_HOURS must not be longer than SESSION_MAX_DAYS',
    ]);
  });
});

describe('UPLOAD_STORAGE', () => {
  it('defaults to files under DATA_DIR on the embedded database and to a table on a server (docs/uploads.md "Storage")', () => {
    expect(loadConfig({}, CWD).uploads).toEqual({ storage: 'filesystem', dir: path.join(CWD, 'data', 'uploads') });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/hc' }, CWD).uploads.storage).toBe('postgres');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/hc', UPLOAD_STORAGE: 'filesystem' }, CWD).uploads.storage).toBe('filesystem');
    expect(problemsOf({ UPLOAD_STORAGE: 's3' })).toEqual(['UPLOAD_STORAGE must be one of postgres, filesystem (got "s3")']);
  });
});

describe('metrics (docs/operations.md "Metrics")', () => {
  it('are off by default: no token, no listener of their own', () => {
    expect(loadConfig({}, CWD).metrics).toEqual({ token: null, port: null, host: '127.0.0.1' });
  });

  it('reads METRICS_TOKEN, METRICS_PORT and METRICS_HOST', () => {
    const token = 'a'.repeat(16);
    expect(loadConfig({ METRICS_TOKEN: token, METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }, CWD).metrics).toEqual({ token, port: 9464, host: '10.0.0.5' });
  });

  it('refuses a short token or one with spaces, without echoing it', () => {
    const problems = problemsOf({ METRICS_TOKEN: 'short-secret' });
    expect(problems).toEqual(['METRICS_TOKEN must be at least 16 characters, without spaces (e.g. `openssl rand -hex 16`)']);
    expect(problems.join()).not.toContain('short-secret');
    expect(problemsOf({ METRICS_TOKEN: 'sixteen chars or more' })).toHaveLength(1);
  });

  it('refuses a METRICS_PORT that is not a port, or is PORT, listing every problem at once', () => {
    expect(problemsOf({ METRICS_PORT: 'metrics' })).toEqual(['METRICS_PORT must be an integer from 1 to 65535 (got "metrics")']);
    expect(problemsOf({ METRICS_PORT: '0' })).toEqual(['METRICS_PORT must be an integer from 1 to 65535 (got "0")']);
    expect(problemsOf({ METRICS_PORT: '70000' })).toHaveLength(1);
    expect(problemsOf({ PORT: '9464', METRICS_PORT: '9464' })).toEqual(['METRICS_PORT must differ from PORT (both are 9464): the metrics listener is a server of its own']);
    expect(problemsOf({ METRICS_PORT: '8080' })).toHaveLength(1); // PORT's default
    expect(problemsOf({ METRICS_TOKEN: 'x', METRICS_PORT: 'y', PORT: 'z' })).toHaveLength(3);
  });
});
