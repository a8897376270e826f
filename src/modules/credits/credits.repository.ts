import type { Db } from '../../db/database.ts';
import { createCreditsBalancesRepository } from './credits-balances.repository.ts';
import { createCreditsKeyCapsRepository } from './credits-key-caps.repository.ts';
import { createCreditsLedgerRepository } from './credits-ledger.repository.ts';
import { createCreditsLotsRepository } from './credits-lots.repository.ts';
import { createCreditsReserveRepository } from './credits-reserve.repository.ts';
import { createCreditsUpkeepRepository } from './credits-upkeep.repository.ts';

export type { LedgerEntryRow, NewEntry } from './credits-ledger.repository.ts';
export type { LotUse, OpenLot } from './credits-lots.repository.ts';

/**
 * SQL of the credits ledger. Every method takes the transaction it must run in: money moves only
 * inside a transaction that also writes its ledger rows (ARCHITECTURE §3 rule 3).
 *
 * One repository for callers (holds, services, moderation), made of one small repository per
 * concern: balances (credits-balances), ledger rows (credits-ledger), credit lots and lot uses
 * (credits-lots), key cap charges and daily spend (credits-key-caps), the reservation of an ask or
 * added heads in one statement (credits-reserve), and the expiry job's and reconciliation's reads
 * (credits-upkeep).
 */
export function createCreditsRepository(db: Db) {
  return {
    ...createCreditsBalancesRepository(db),
    ...createCreditsLedgerRepository(db),
    ...createCreditsLotsRepository(db),
    ...createCreditsReserveRepository(),
    ...createCreditsKeyCapsRepository(db),
    ...createCreditsUpkeepRepository(db),
  };
}
export type CreditsRepository = ReturnType<typeof createCreditsRepository>;
