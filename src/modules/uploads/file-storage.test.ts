import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFilesystemStorage } from './file-storage.ts';
import { handleSyncsDuring } from '../../../test/helpers/syncs.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function storage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-files-'));
  dirs.push(dir);
  return { dir, files: createFilesystemStorage(path.join(dir, 'uploads')) };
}

describe('the filesystem file storage', () => {
  it('puts, gets, tells whether a key exists, and deletes', async () => {
    const { dir, files } = storage();
    const key = 'upl_abcdefghijklmnopqrst';
    expect(await files.exists(key)).toBe(false);
    expect(await files.get(key)).toBeNull();
    await files.put(key, Buffer.from('bytes'));
    expect(await files.exists(key)).toBe(true);
    expect((await files.get(key))?.toString()).toBe('bytes');
    // Spread by the key's last two characters; no temporary file left behind.
    expect(fs.readdirSync(path.join(dir, 'uploads', 'st'))).toEqual([key]);
    await files.delete(key);
    await files.delete(key);
    expect(await files.exists(key)).toBe(false);
  });

  it('never turns a key that is not an id into a path', async () => {
    const { files } = storage();
    for (const key of ['../../etc/passwd', 'a/b', '', 'x'.repeat(65), 'upl_.png']) {
      await expect(files.put(key, Buffer.from('x'))).rejects.toThrow(/Not a storage key/);
      await expect(files.get(key)).rejects.toThrow(/Not a storage key/);
    }
  });

  // On disk before the upload's row commits (itself durable): a power cut cannot leave a
  // finished upload whose file is empty (lib/fsync.ts).
  it('an uploaded file stored on the filesystem is synced, and so is its folder, before put returns', async () => {
    const { dir: root } = storage();
    const dir = fs.realpathSync(root);
    const files = createFilesystemStorage(dir);
    const synced = await handleSyncsDuring(dir, () => files.put('upl_durable0001ab', Buffer.from([1, 2, 3])));
    const folder = path.join(dir, 'ab');
    expect(synced).toHaveLength(2);
    expect(synced[0]).toMatch(new RegExp(`^${folder}/upl_durable0001ab\\.tmp-`));
    expect(synced[1]).toBe(folder);
    expect([...(await files.get('upl_durable0001ab'))!]).toEqual([1, 2, 3]);
  });
});
