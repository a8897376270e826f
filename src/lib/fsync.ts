import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes that must survive a power cut, not only a killed process: the kernel holds written data
 * in its page cache and writes it back in any order, so a rename (or a commit) can reach the disk
 * before the bytes it names. These sync what was written before it is relied on.
 */

/** One file's or directory's fsync, through a descriptor of its own. */
function syncPath(p: string): void {
  const fd = fs.openSync(p, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Syncs every file and directory under `dir`: files written with plain writes (a copied
 * template, a restored backup) are on disk before they are renamed into place and used. Without
 * it a power cut after the rename could leave a database whose files are empty or short.
 */
export function syncTree(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) syncTree(full);
    else if (entry.isFile()) syncPath(full);
  }
  syncPath(dir);
}

/** Syncs the directory holding `entry`, so a rename to `entry` is on disk. */
export function syncRename(entry: string): void {
  syncPath(path.dirname(entry));
}

/** The async twin of syncPath: the sync runs off the event loop's thread. */
async function syncPathAsync(p: string): Promise<void> {
  const handle = await fsp.open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Puts a finished file in place: synced, renamed over `target` (a file there is replaced), and
 * the rename synced. Whole or not at all, power cut included.
 */
export async function renameSynced(partial: string, target: string): Promise<void> {
  await syncPathAsync(partial);
  await fsp.rename(partial, target);
  await syncPathAsync(path.dirname(target));
}
