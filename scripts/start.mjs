// `npm start`: the service from dist/ (plain JavaScript, compiled at install by scripts/build.mjs),
// so no start pays for compiling TypeScript (issue 15), and from its bundle (dist/bundle/main.js,
// scripts/bundle.mjs), so no start pays for loading ~900 modules one by one. When src/ has
// changed since the build (an engineer's edit, a `git pull`), it is built again first, so
// `npm start` never runs stale code.
// If that build fails, the service starts from src/ through tsx instead, as it did before dist/
// existed, and says so.
import module from 'node:module';
import { build, staleReason } from './build.mjs';

// Node 22.1+ keeps the compiled code of every module it loads (in the system's temporary
// directory), so a second start skips most of the JavaScript parsing. Node 20 has no such cache.
module.enableCompileCache?.();

const reason = staleReason();
let entry = '../dist/bundle/main.js';
if (reason) {
  process.stderr.write(`Building dist/ first (${reason})…\n`);
  try {
    await build();
  } catch (error) {
    process.stderr.write(`${error.message}; starting from src/ with tsx instead (slower).\n`);
    const { register } = await import('tsx/esm/api');
    register();
    entry = '../src/main.ts';
  }
}
await import(entry);
