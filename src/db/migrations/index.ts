import type { Migration } from 'kysely';
import * as m0001 from './0001-foundation.ts';

/** Every migration, in the order it is applied. Names never change once released. */
export const migrations: Record<string, Migration> = {
  '0001-foundation': m0001,
};
