import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

/**
 * The answer page's CSS and JavaScript, read once at start-up and served from memory (they are a
 * few small files; no bundler and no build step). They are addressed as
 * `/a/assets/{version}/{file}`, where `version` hashes every file together: relative ES module
 * imports (`../answer-page/i18n.js`) then stay inside the same version, so one hash in the path makes every
 * file cacheable for a year, and any edit gives new URLs.
 */
export interface Asset {
  readonly body: Buffer;
  readonly contentType: string;
  /** Strong ETag of this file's bytes (RFC 9110 §8.8.3), for revalidation when the version is stale. */
  readonly etag: string;
}

export interface AssetBundle {
  readonly version: string;
  readonly files: ReadonlyMap<string, Asset>;
  /** The JavaScript modules, for `<link rel="modulepreload">` (saves a round-trip per import on a phone). */
  readonly modules: readonly string[];
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Asset names are flat and plain (no folders, no dots but the extension): a lookup key, never a path. */
export const ASSET_NAME = /^[a-z0-9-]+\.(js|css|svg)$/;

export const ASSETS_DIR = new URL('./assets/', import.meta.url);

export function loadAssets(dir: URL | string = ASSETS_DIR): AssetBundle {
  const root = typeof dir === 'string' ? dir : fileURLToPath(dir);
  const names = fs.readdirSync(root).filter((name) => ASSET_NAME.test(name)).sort();
  const all = createHash('sha256');
  const files = new Map<string, Asset>();
  for (const name of names) {
    const body = fs.readFileSync(path.join(root, name));
    const digest = createHash('sha256').update(body).digest('base64url').slice(0, 22);
    all.update(name).update('\0').update(body).update('\0');
    files.set(name, { body, contentType: CONTENT_TYPES[path.extname(name)], etag: `"${digest}"` });
  }
  return { version: all.digest('hex').slice(0, 12), files, modules: names.filter((n) => n.endsWith('.js')) };
}
