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

export interface DB {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  heads: HeadsTable;
  system_markers: SystemMarkersTable;
}

export type { Generated };
