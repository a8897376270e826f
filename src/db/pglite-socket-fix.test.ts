import { describe, expect, it } from 'vitest';
import { serialize } from 'pg-protocol';
import { completeMessages, startupApplicationName } from './pglite-socket-fix.ts';

/** A statement as node-postgres sends it: Parse, Bind, Describe, Execute, Sync. */
const statement = (text: string, values: string[]) =>
  Buffer.concat([serialize.parse({ text, name: '', types: [] }), serialize.bind({ values }), serialize.describe({ type: 'P', name: '' }), serialize.execute({ portal: '', rows: 0 }), serialize.sync()]);

describe('the embedded socket server takes what a connection sent together', () => {
  it('every complete message at the front, in one run; a message cut by the read waits for its rest', () => {
    const one = statement('select $1::int + 1', ['41']);
    const two = Buffer.concat([one, statement('select $1::text', ['x'])]);
    expect(completeMessages(one)).toBe(one.length);
    expect(completeMessages(two)).toBe(two.length);
    // The second statement cut in the middle of its Bind: the first statement and its own Parse are complete.
    const parse = serialize.parse({ text: 'select $1::text', name: '', types: [] });
    const cut = Buffer.concat([one, parse, serialize.bind({ values: ['x'] }).subarray(0, 7)]);
    expect(completeMessages(cut)).toBe(one.length + parse.length);
    // Not even one complete message: nothing yet.
    expect(completeMessages(one.subarray(0, 4))).toBe(0);
    expect(completeMessages(one.subarray(0, 9))).toBe(0);
  });

  it('a startup message goes alone (it names the connection), and only when whole', () => {
    const startup = serialize.startup({ user: 'postgres', database: 'postgres', application_name: 'psql' });
    const withMore = Buffer.concat([startup, serialize.sync()]);
    expect(completeMessages(withMore)).toBe(startup.length);
    expect(startupApplicationName(new Uint8Array(withMore.subarray(0, startup.length)))).toBe('psql');
    expect(completeMessages(startup.subarray(0, startup.length - 1))).toBe(0);
  });

  it('a length that cannot be a message stops the run rather than looping', () => {
    const bad = Buffer.from([0x51, 0, 0, 0, 2, 0x41]);
    expect(completeMessages(bad)).toBe(0);
  });
});
