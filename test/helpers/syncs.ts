import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { vi } from 'vitest';

/**
 * What a test of durability can watch without cutting the power: the syncs the kernel is asked
 * for (src/lib/fsync.ts, src/db/pglite-durable.ts), each named by the path behind its descriptor
 * (Linux's /proc/self/fd), read when the sync is asked for.
 */
const pathOf = (fd: number) => fs.readlinkSync(`/proc/self/fd/${fd}`);

/** Paths `fs.fsyncSync` was called on while `work` ran (PGlite's file system, the sync helpers), in order. */
export async function fsyncsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const synced: string[] = [];
  const original = fs.fsyncSync;
  const spy = vi.spyOn(fs, 'fsyncSync').mockImplementation((fd: number) => {
    synced.push(pathOf(fd));
    original(fd);
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return synced;
}

/** Paths a `FileHandle`'s `sync()` was called on while `work` ran, in order (`dir`: somewhere to open a probe handle). */
export async function handleSyncsDuring(dir: string, work: () => Promise<unknown>): Promise<string[]> {
  const probePath = path.join(dir, '.sync-probe');
  const probe = await fsp.open(probePath, 'w');
  const proto = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
  await probe.close();
  await fsp.rm(probePath);
  const synced: string[] = [];
  const original = proto.sync;
  const spy = vi.spyOn(proto, 'sync').mockImplementation(async function (this: { fd: number }) {
    synced.push(pathOf(this.fd));
    return original.call(this);
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return synced;
}
