#!/usr/bin/env node
// The `headcount` command's entry point, committed (not built) so that npm links it into
// node_modules/.bin at install time: in a fresh clone dist/ does not exist yet when npm links
// bins (the build runs after), and a bin that points into dist/ would be left unlinked.
try {
  await import('../dist/main.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/main.js')) {
    process.stderr.write('headcount is not built yet: run `npm ci` (or `npm run build -w packages/cli`) in the repository.\n');
    process.exit(2);
  }
  throw error;
}
