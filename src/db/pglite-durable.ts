import fs from 'node:fs';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/**
 * PGlite as published does not make a COMMIT durable: it starts PostgreSQL with `-F` (fsync =
 * off), its Emscripten NODEFS has no fsync, and its fdatasync is a no-op. Committed rows then sit
 * in the operating system's page cache: a killed process loses nothing, but a power cut or a
 * kernel crash could lose the last commits (credits bought, answers recorded) or leave the data
 * directory damaged, WAL and data pages reaching the disk in any order. The embedded database is
 * the default, and money lives in it, so every PGlite this service opens on files goes through
 * here:
 *
 * - PostgreSQL starts with PGlite's own parameters less `-F`, so fsync is on (a commit waits for
 *   its WAL on disk; a checkpoint syncs the data files before the WAL that covers them is
 *   recycled), and `wal_sync_method=fsync`, the one method that reaches the patched call (the
 *   default, fdatasync, is the no-op);
 * - NODEFS gets the fsync Emscripten leaves out: `fs.fsyncSync` on the file's (or directory's)
 *   descriptor, its errors turned into the errno PostgreSQL expects (an fsync that fails makes
 *   PostgreSQL stop, as it does on a server).
 *
 * The sync runs on this process's one thread, as all of PGlite does: 0.1–0.3 ms a commit on this
 * project's machines (docs/performance.md), more on slow disks. The service's hot writes are group
 * commits (answers, link answers among them), which pay it once a batch. Written here because PGlite offers no
 * durability switch; `pglite-durable.test.ts` beside it proves a commit is synced before it
 * returns, so a PGlite upgrade that renames the pieces patched here fails loudly.
 */
const NO_FSYNC = '-F';

/** PGlite's start parameters with fsync on, synced through the one method that reaches the disk. */
const DURABLE_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams.filter((p) => p !== NO_FSYNC), '-c', 'wal_sync_method=fsync'];

type EmscriptenOptions = Parameters<NodeFS['init']>[1];
type PreRun = NonNullable<EmscriptenOptions['preRun']>[number];

/** The part of Emscripten's NODEFS this touches (not in PGlite's types). */
interface NodeFsInternals {
  stream_ops: { fsync?: (stream: { nfd: number }) => number };
  tryFSOperation<T>(operation: () => T): T;
}

/** Before PostgreSQL starts: NODEFS's stream operations are one object, shared by every file it opens. */
const addFsync: PreRun = (module) => {
  const nodefs = module.FS.filesystems.NODEFS as unknown as NodeFsInternals;
  nodefs.stream_ops.fsync = (stream) => {
    nodefs.tryFSOperation(() => fs.fsyncSync(stream.nfd));
    return 0;
  };
};

/** NODEFS for a data directory, with a real fsync. */
class SyncingNodeFS extends NodeFS {
  override async init(pg: Parameters<NodeFS['init']>[0], options: EmscriptenOptions) {
    const result = await super.init(pg, options);
    result.emscriptenOpts.preRun = [...(result.emscriptenOpts.preRun ?? []), addFsync];
    return result;
  }
}

/** A PGlite on the files under `dataDir`, committing durably. */
export function openDurablePGlite(dataDir: string, options: Omit<PGliteOptions, 'dataDir' | 'fs' | 'startParams'> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, fs: new SyncingNodeFS(dataDir), startParams: [...DURABLE_START_PARAMS] });
}
