import fs from 'node:fs';
import path from 'node:path';
import { AppError, validationError } from '../lib/errors.ts';
import { DataDirInUseError, backupClosedDataDir, lockHolder, restoreDataDir } from '../db/embedded.ts';
import { requestBackup } from '../db/embedded-admin-socket.ts';
import { BackupFileError } from '../db/embedded-backup.ts';
import { required, type AdminCommand } from './cli-values.ts';
import type { Config } from '../config.ts';

/**
 * `backup` and `restore` of the embedded database (docs/operations.md "Backups"). On PostgreSQL
 * (DATABASE_URL) the server's own tools do it (pg_dump, base backups and WAL archiving), so these
 * refuse and say where to look.
 */
function embeddedOnly(config: Config, verb: string): void {
  if (config.databaseUrl) {
    throw new AppError('conflict', `${verb} is for the embedded database; with DATABASE_URL use PostgreSQL's pg_dump / pg_restore (docs/operations.md "Backups").`);
  }
}

function usable(file: string, force: boolean): void {
  if (fs.existsSync(file) && !force) {
    throw validationError([{ field: 'to', code: 'not_allowed', message: `${file} exists; give --force to replace it.` }], `${file} exists; give --force to replace it.`);
  }
}

export const backupCommands: Record<string, AdminCommand> = {
  backup: {
    usage: '--to FILE [--force]',
    summary:
      'Back up the embedded database and uploads to one .tar.gz file. Consistent while the service runs (it makes the backup; requests wait while the database is read).',
    options: {
      to: { type: 'string', value: 'FILE', description: 'where to write the backup, e.g. backups/headcount-2026-11-28.tar.gz (required)' },
      force: { type: 'boolean', description: 'replace FILE if it exists' },
    },
    async onFiles(config, v) {
      embeddedOnly(config, 'backup');
      const file = required(v, 'to');
      usable(file, v.force === true);
      // `--to backups/today.tar.gz` on a first run: the folder is made, as `cp` users expect of a backup tool.
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      const running = lockHolder(config.dataDir);
      const started = Date.now();
      const manifest = running !== null ? await requestBackup(config.dataDir, file) : await backupClosedDataDir(config.dataDir, file);
      if (!manifest) {
        throw new AppError('conflict', `DATA_DIR ${config.dataDir} is open in process ${running}, which serves no backups (an admin command?); try again when it has finished.`);
      }
      return { backup: { file, bytes: fs.statSync(file).size, ms: Date.now() - started, whileRunning: running !== null, ...manifest } };
    },
  },
  restore: {
    usage: '--from FILE',
    summary:
      "Replace the embedded database and uploads with a backup's. Stop the service first; the current ones are moved to DATA_DIR/before-restore-TIME, not deleted.",
    options: {
      from: { type: 'string', value: 'FILE', description: 'a file made by `backup` (required)' },
    },
    async onFiles(config, v) {
      embeddedOnly(config, 'restore');
      const file = required(v, 'from');
      try {
        const { manifest, movedAside } = await restoreDataDir(config.dataDir, file);
        return { restored: { from: file, dataDir: config.dataDir, movedAside, ...manifest } };
      } catch (error) {
        if (error instanceof DataDirInUseError) {
          throw new AppError('conflict', `DATA_DIR ${config.dataDir} is in use by process ${error.pid}: stop the service, then restore.`);
        }
        if (error instanceof BackupFileError) throw validationError([{ field: 'from', code: 'invalid_format', message: error.message }], error.message);
        throw error;
      }
    },
  },
};
