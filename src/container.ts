import type { Config } from './config.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import type { Database } from './db/database.ts';
import { createAccountsRepository } from './modules/accounts/accounts.repository.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';
import { createPoolRepository } from './modules/panel/pool.repository.ts';
import { createPoolService } from './modules/panel/pool.service.ts';
import { createEstimateService } from './modules/estimate/estimate.service.ts';
import { createCataloguesRepository } from './modules/catalogues/catalogues.repository.ts';
import { createCataloguesService } from './modules/catalogues/catalogues.service.ts';
import { createCreditsRepository } from './modules/credits/credits.repository.ts';
import { createCreditsService } from './modules/credits/credits.service.ts';
import { createDraftsRepository } from './modules/drafts/drafts.repository.ts';
import { createDraftsService } from './modules/drafts/drafts.service.ts';

/**
 * Composition root (ARCHITECTURE §3): database → repositories → services. Tests build one with a
 * fake clock; main.ts and the CLI build one each.
 */
export function createContainer(config: Config, database: Database, clock: Clock = systemClock) {
  const { db } = database;
  const accountsRepo = createAccountsRepository(db);
  const accounts = createAccountsService({ repo: accountsRepo, clock });
  const pool = createPoolService({ repo: createPoolRepository(db), clock });
  const estimates = createEstimateService({ pool, clock });
  const catalogues = createCataloguesService({ repo: createCataloguesRepository(db), clock });
  const creditsRepo = createCreditsRepository(db);
  const credits = createCreditsService({ db, repo: creditsRepo, accounts: accountsRepo, clock });
  const drafts = createDraftsService({ repo: createDraftsRepository(db), clock });
  return { config, clock, database, db, accounts, pool, estimates, catalogues, credits, drafts };
}
export type Container = ReturnType<typeof createContainer>;
