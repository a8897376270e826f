import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from './exit-codes.ts';

/**
 * Saved credentials, one per service (base URL), in `$XDG_CONFIG_HOME/headcount/credentials.json`
 * (default `~/.config/headcount/credentials.json`): the directory 0700, the file 0600, written
 * whole to a temporary file and renamed over the old one, under a lock file so two `headcount`
 * processes refreshing one OAuth token at the same moment do not both spend its refresh token
 * (the service rotates refresh tokens, and a used one used again ends the connection).
 */
export type Credential = ApiKeyCredential | OauthCredential;

export interface ApiKeyCredential {
  type: 'api_key';
  apiKey: string;
  savedAt: string;
}

export interface OauthCredential {
  type: 'oauth';
  clientId: string;
  accessToken: string;
  refreshToken: string | null;
  /** When the access token stops working (ISO), when the service said. */
  expiresAt: string | null;
  scope: string | null;
  tokenEndpoint: string;
  revocationEndpoint: string | null;
  resource: string;
  savedAt: string;
}

export interface RegisteredClient {
  clientId: string;
  registeredAt: string;
}

export interface CredentialsFile {
  version: 1;
  credentials: Record<string, Credential>;
  /** OAuth clients this machine registered, kept across logout so a login does not register again. */
  clients: Record<string, RegisteredClient>;
}

/** The SDK's default (a service on this machine); HEADCOUNT_BASE_URL or --base-url name another. */
export { DEFAULT_BASE_URL } from '@headcount/sdk';

/** `https://host/path/` → `https://host/path`; only http(s) without query or fragment. */
export function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new UsageError(`The base URL "${value}" is not a URL (such as https://headcount.example).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`The base URL must be http:// or https://, not ${url.protocol}`);
  if (url.username || url.password) throw new UsageError('The base URL must not carry a user name or password.');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function configDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG spec: a relative path is to be ignored.
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'headcount');
}

export class CredentialStore {
  readonly dir: string;
  readonly file: string;
  private readonly lockFile: string;

  constructor(env: NodeJS.ProcessEnv) {
    this.dir = configDir(env);
    this.file = path.join(this.dir, 'credentials.json');
    this.lockFile = `${this.file}.lock`;
  }

  async read(): Promise<CredentialsFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty();
      throw error;
    }
    // A file someone widened: back to 0600 before anything else reads it.
    try {
      if (((await stat(this.file)).mode & 0o077) !== 0) await chmod(this.file, 0o600);
    } catch {
      // reading is what matters
    }
    try {
      const parsed = JSON.parse(text) as Partial<CredentialsFile>;
      return { version: 1, credentials: parsed.credentials ?? {}, clients: parsed.clients ?? {} };
    } catch {
      throw new UsageError(`${this.file} is not valid JSON; remove it and log in again.`);
    }
  }

  async get(baseUrl: string): Promise<Credential | null> {
    return (await this.read()).credentials[baseUrl] ?? null;
  }

  async client(baseUrl: string): Promise<RegisteredClient | null> {
    return (await this.read()).clients[baseUrl] ?? null;
  }

  /** Read, change and write back under the lock; `change` returns what to write (or null to leave it). */
  async update<T>(change: (file: CredentialsFile) => Promise<T> | T): Promise<T> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const release = await this.lock();
    try {
      const file = await this.read();
      const result = await change(file);
      await this.write(file);
      return result;
    } finally {
      await release();
    }
  }

  async save(baseUrl: string, credential: Credential): Promise<void> {
    await this.update((file) => {
      file.credentials[baseUrl] = credential;
      if (credential.type === 'oauth') file.clients[baseUrl] = { clientId: credential.clientId, registeredAt: file.clients[baseUrl]?.registeredAt ?? credential.savedAt };
    });
  }

  async saveClient(baseUrl: string, client: RegisteredClient): Promise<void> {
    await this.update((file) => {
      file.clients[baseUrl] = client;
    });
  }

  async remove(baseUrl: string): Promise<Credential | null> {
    return this.update((file) => {
      const old = file.credentials[baseUrl] ?? null;
      delete file.credentials[baseUrl];
      return old;
    });
  }

  private async write(file: CredentialsFile): Promise<void> {
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(file, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(temp, 0o600);
    await rename(temp, this.file);
  }

  /** An exclusive lock file; one left behind by a killed process is taken over after 30 s. */
  private async lock(): Promise<() => Promise<void>> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        const handle = await open(this.lockFile, 'wx', 0o600);
        await handle.writeFile(String(process.pid));
        await handle.close();
        return async () => {
          await unlink(this.lockFile).catch(() => {});
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const age = await stat(this.lockFile).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        );
        if (age > 30_000) await unlink(this.lockFile).catch(() => {});
        else if (Date.now() > deadline) throw new Error(`${this.lockFile} is held by another headcount process; remove it if none is running.`);
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
}

function empty(): CredentialsFile {
  return { version: 1, credentials: {}, clients: {} };
}

/** `hc_live_XWNC9z…ZGvh`: enough of a key to recognise it, never the secret. */
export function maskKey(key: string): string {
  const match = /^(hc_(?:live|test|ses)_)(.*)$/.exec(key);
  if (!match) return key.length > 10 ? `${key.slice(0, 4)}…${key.slice(-4)}` : '…';
  const rest = match[2]!;
  return rest.length > 10 ? `${match[1]}${rest.slice(0, 6)}…${rest.slice(-4)}` : `${match[1]}…`;
}
