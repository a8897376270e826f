import { loadOnce } from '../lib/load-once.ts';

/**
 * oidc-provider, imported on first use (it and Koa take ~0.25 s to load, which the service's
 * start-up no longer pays: main.ts loads it just after the service is ready, before any OAuth
 * request is likely) and so that what it prints goes to the service's log. It writes plain-text
 * notices with console.warn/console.info, one of them at import on a Node.js it does not list
 * (Node 20: "Unsupported runtime"), while every line the service prints must be JSON (docs/
 * operations: one object a line). So the import happens here, with those two console methods
 * held for its duration, and the notices are kept for the caller to log through pino. (The
 * service itself logs through pino only, so nothing else of its own is held meanwhile.) The
 * defaults that would print at run time are all replaced in oauth-provider.ts.
 */
export interface OidcProviderModule {
  Provider: typeof import('oidc-provider').Provider;
  errors: typeof import('oidc-provider').errors;
  /** What oidc-provider printed while it was imported. */
  importNotices: readonly string[];
}

/** The provider, made on first use (oauth-provider.ts; loading the module is most of the cost). */
export type LazyProvider = () => Promise<import('oidc-provider').Provider>;

export const loadOidcProvider: () => Promise<OidcProviderModule> = loadOnce(async () => {
  const held: string[] = [];
  const { warn, info } = console;
  // Without the terminal colours it adds when stderr is one.
  const hold = (...parts: unknown[]) => void held.push(parts.map(String).join(' ').replace(/\x1b\[[0-9;]*m/g, ''));
  console.warn = hold;
  console.info = hold;
  try {
    const { Provider, errors } = await import('oidc-provider');
    return { Provider, errors, importNotices: held };
  } finally {
    console.warn = warn;
    console.info = info;
  }
});
