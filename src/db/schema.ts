import type { ColumnType, Generated } from 'kysely';

/** Row types of the database, as Kysely sees them. Keep in step with migrations/. */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface AccountsTable {
  id: string;
  name: string;
  kind: 'person' | 'team';
  currency: 'GBP' | 'USD' | 'EUR' | 'CAD';
  language: string;
  email: string | null;
  created_at: CreatedAt;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string | null;
  mode: 'live' | 'test';
  prefix: string;
  secret_hash: Buffer;
  scopes: string[];
  daily_cap_credits: number | null;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface HeadsTable {
  id: string;
  country: string;
  tier: number;
  age_band: string;
  gender: string;
  tags: string[];
  verified_age: boolean;
  language: string;
  simulated: boolean;
  last_seen_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface SystemMarkersTable {
  name: string;
  created_at: CreatedAt;
}

export interface BalancesTable {
  account_id: string;
  available: ColumnType<number, number | undefined, number>;
  reserved: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface LedgerEntriesTable {
  id: string;
  seq: Generated<number>;
  account_id: string;
  kind: string;
  state: string;
  amount: number;
  title: string;
  ref: string | null;
  unique_ref: string;
  key_id: string | null;
  by: string | null;
  at: Timestamp;
}

export interface CreditLotsTable {
  id: string;
  account_id: string;
  entry_id: string;
  amount: number;
  remaining: number;
  expires_at: Timestamp | null;
  expired_at: Timestamp | null;
}

export interface KeyDailySpendTable {
  key_id: string;
  day: ColumnType<string, string, string>;
  spent: number;
}

export interface DraftsTable {
  id: string;
  account_id: string;
  draft: ColumnType<Record<string, unknown>, string, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DB {
  balances: BalancesTable;
  ledger_entries: LedgerEntriesTable;
  credit_lots: CreditLotsTable;
  key_daily_spend: KeyDailySpendTable;
  drafts: DraftsTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  heads: HeadsTable;
  system_markers: SystemMarkersTable;
}

export type { Generated };
