import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renameSynced } from './fsync.ts';
import { handleSyncsDuring } from '../../test/helpers/syncs.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hc-fsync-')));
  dirs.push(dir);
  return dir;
};

describe('files that must survive a power cut', () => {
  it('renameSynced: the file synced, then renamed over the target, then its folder synced', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'backup.tar.gz');
    fs.writeFileSync(target, 'the previous backup');
    fs.writeFileSync(`${target}.partial`, 'the new backup');
    const synced = await handleSyncsDuring(dir, () => renameSynced(`${target}.partial`, target));
    expect(synced).toEqual([`${target}.partial`, dir]);
    expect(fs.readFileSync(target, 'utf8')).toBe('the new backup');
    expect(fs.existsSync(`${target}.partial`)).toBe(false);
  });

});
