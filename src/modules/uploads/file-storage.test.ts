import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFilesystemStorage } from './file-storage.ts';

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
});
