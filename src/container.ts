import type { Config } from './config.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import type { Database } from './db/database.ts';
import { createAccountsRepository } from './modules/accounts/accounts.repository.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';

/**
 * Composition root (ARCHITECTURE §3): database → repositories → services. Tests build one with a
 * fake clock; main.ts and the CLI build one each.
 */
export function createContainer(config: Config, database: Database, clock: Clock = systemClock) {
  const { db } = database;
  const accountsRepo = createAccountsRepository(db);
  const accounts = createAccountsService({ repo: accountsRepo, clock });
  return { config, clock, database, db, accounts };
}
export type Container = ReturnType<typeof createContainer>;
