// `npm run admin`: the admin CLI from dist/ (plain JavaScript, compiled at install by
// scripts/build.mjs; its bundle, dist/bundle/admin.js), as `npm start` runs the service, so no
// command pays for compiling TypeScript first (about 1.5 s of every command through tsx on two
// cores; issue 15). When src/ has changed since the build it runs from src/ through tsx instead,
// so an edit is never run stale. It does not build first, as `npm start` does: a command waits
// for no build, and prints nothing but its own output.
import module from 'node:module';
import { staleReason } from './build.mjs';

// Node 22.1+ keeps the compiled code of every module it loads between runs; Node 20 has no such cache.
module.enableCompileCache?.();

if (staleReason()) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/admin.ts');
} else {
  await import('../dist/bundle/admin.js');
}
