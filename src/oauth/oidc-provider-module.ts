/**
 * oidc-provider, imported so that what it prints goes to the service's log. It writes plain-text
 * notices with console.warn/console.info, one of them at import on a Node.js it does not list
 * (Node 20: "Unsupported runtime"), while every line the service prints must be JSON (docs/
 * operations: one object a line). So the import happens here, with those two console methods
 * held for its duration, and the notices are kept for the container to log through pino. The
 * defaults that would print at run time are all replaced in oauth-provider.ts.
 */
const held: string[] = [];
const { warn, info } = console;
// Without the terminal colours it adds when stderr is one.
const hold = (...parts: unknown[]) => void held.push(parts.map(String).join(' ').replace(/\x1b\[[0-9;]*m/g, ''));
console.warn = hold;
console.info = hold;
let module: typeof import('oidc-provider');
try {
  module = await import('oidc-provider');
} finally {
  console.warn = warn;
  console.info = info;
}

export const { Provider, errors } = module;
/** What oidc-provider printed while it was imported (logged by the container as warnings). */
export const importNotices: readonly string[] = held;
