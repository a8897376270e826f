import path from 'node:path';

/** Where the embedded database keeps its files and sockets inside DATA_DIR (embedded.ts). */
export const SOCKET_PORT = 5432;

export interface EmbeddedPaths {
  pgdata: string;
  lockFile: string;
  socketDir: string;
  socketFile: string;
  /** The running instance's admin socket (embedded-admin-socket.ts): backups while it runs. */
  adminSocket: string;
}

export function embeddedPaths(dataDir: string): EmbeddedPaths {
  return {
    pgdata: path.join(dataDir, 'pgdata'),
    lockFile: path.join(dataDir, 'headcount.lock'),
    socketDir: dataDir,
    socketFile: path.join(dataDir, `.s.PGSQL.${SOCKET_PORT}`),
    // Shorter than the database's socket name: wherever that one fits a Unix socket path (108 bytes), this does too.
    adminSocket: path.join(dataDir, '.s.hc-admin'),
  };
}
