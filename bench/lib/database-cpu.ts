import fs from 'node:fs';

/**
 * CPU time used by the PostgreSQL server on this machine, in microseconds: every live `postgres`
 * process (the backends serving the app's pools, the WAL writer, the checkpointer…) plus what
 * the postmaster has reaped from children that exited (its cutime and cstime). Read from /proc,
 * before and after a measured run, so each write row can show what the database itself spent per
 * request beside the app's CPU: on a two-core machine that is shared by the app, the database and
 * the load generator, the limit of a write path is the sum of the three.
 *
 * Null when it cannot be read: no /proc (not Linux), or no `postgres` process here (the bench is
 * on the embedded database, whose work is already in the app's CPU, or BENCH_DATABASE_URL names
 * another machine).
 */
const TICK_MICROS = 1e6 / 100; // USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK)

function statFields(pid: string): string[] | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: the fields start after the last ')'.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // exited meanwhile
  }
}

export function databaseCpuMicros(): number | null {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let ticks = 0;
  let found = false;
  for (const pid of entries) {
    let comm: string;
    try {
      comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (comm !== 'postgres') continue;
    const fields = statFields(pid);
    if (!fields) continue;
    found = true;
    // Fields after the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
    ticks += Number(fields[11]) + Number(fields[12]);
    const parent = fields[1];
    const parentComm = (() => {
      try {
        return fs.readFileSync(`/proc/${parent}/comm`, 'utf8').trim();
      } catch {
        return '';
      }
    })();
    // The postmaster (whose parent is not postgres) holds the CPU of the backends it has reaped.
    if (parentComm !== 'postgres') ticks += Number(fields[13]) + Number(fields[14]);
  }
  return found ? ticks * TICK_MICROS : null;
}

/** True when a PostgreSQL URL names this machine (loopback or a Unix socket), so /proc sees its server. */
export function isLocalDatabase(url: string): boolean {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get('host') || '';
    return host === '' || host.startsWith('/') || host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host === '::1';
  } catch {
    return false;
  }
}
