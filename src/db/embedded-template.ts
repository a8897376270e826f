import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { syncRename, syncTree } from '../lib/fsync.ts';

/**
 * A migrated embedded database made once, at install (`npm ci` runs the build, scripts/build.mjs),
 * that a fresh DATA_DIR starts as a copy of (issue 15). Creating a PGlite data directory runs
 * PostgreSQL's initdb inside WebAssembly, about 2.5 s on two cores; copying the ~40 MB result
 * takes a tenth of that. Migrations still run at every start, so a template older than the code
 * (a migration added since the build) is brought up to date like any existing database.
 *
 * The template is used only when the PGlite that made it is the one installed: PostgreSQL's
 * on-disk format is tied to its version, and `npm update` may change it without a new build.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** src/db and dist/db are both two levels below the project, so both find the same directory. */
export const TEMPLATE_DIR = path.join(ROOT, 'dist', 'embedded-template');
const MANIFEST = 'template.json';

interface TemplateManifest {
  pglite: string;
  migrations: string[];
}

export function installedPgliteVersion(): string {
  const require = createRequire(import.meta.url);
  // The package's exports map hides package.json, so read it next to the resolved entry point.
  let dir = path.dirname(require.resolve('@electric-sql/pglite'));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The template's pgdata when there is one this PGlite can open, else null. */
export function usableTemplate(templateDir = TEMPLATE_DIR): string | null {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(templateDir, MANIFEST), 'utf8')) as TemplateManifest;
    const pgdata = path.join(templateDir, 'pgdata');
    return manifest.pglite === installedPgliteVersion() && fs.existsSync(path.join(pgdata, 'PG_VERSION')) ? pgdata : null;
  } catch {
    return null;
  }
}

/**
 * Fills a DATA_DIR's missing pgdata from the template. The copy goes to a sibling directory first
 * and is renamed into place, so a start interrupted mid-copy leaves no half database behind (the
 * next start copies again, or runs initdb when the template is gone).
 */
export function startFromTemplate(pgdata: string, templateDir = TEMPLATE_DIR): boolean {
  if (fs.existsSync(pgdata)) return false;
  const source = usableTemplate(templateDir);
  if (!source) return false;
  const partial = `${pgdata}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.cpSync(source, partial, { recursive: true });
  // The copy on disk before it is renamed into place (and the rename after): a power cut must
  // not leave a database of empty files (pglite-durable.ts).
  syncTree(partial);
  fs.renameSync(partial, pgdata);
  syncRename(pgdata);
  return true;
}

/** Writes the manifest beside a template's pgdata once it is complete (scripts/build.mjs). */
export function writeTemplateManifest(templateDir: string, migrations: string[]): void {
  const manifest: TemplateManifest = { pglite: installedPgliteVersion(), migrations };
  fs.writeFileSync(path.join(templateDir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}
