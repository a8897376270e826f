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

export interface KeyCapChargesTable {
  question_id: string;
  key_id: string;
  day: ColumnType<string, string, string>;
  amount: number;
  returned: Generated<number>;
}

export interface DraftsTable {
  id: string;
  account_id: string;
  draft: ColumnType<Record<string, unknown>, string, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProjectsTable {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  goal: string | null;
  bookmarked: ColumnType<boolean, boolean | undefined, boolean>;
  archived: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

type Json = ColumnType<Record<string, unknown>, string, string>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface QuestionsTable {
  id: string;
  seq: Generated<number>;
  account_id: string;
  key_id: string | null;
  source: string;
  status: string;
  type: string;
  draft: Json;
  n: number;
  tier: number;
  credits_per_answer: number;
  credits_reserved: number;
  credits_spent: Defaulted<number>;
  credits_refunded: Defaulted<number>;
  answered: Defaulted<number>;
  /** Answers removed after review; `answered` still counts them (migration 0008). */
  removed_answers: Defaulted<number>;
  eta_minutes: number;
  open_for_days: Defaulted<number>;
  scheduled_for: Timestamp | null;
  live_at: Timestamp | null;
  closes_at: Timestamp | null;
  closed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  project_id: string | null;
  labels: Defaulted<string[]>;
  archived: Defaulted<boolean>;
  bookmarked: Defaulted<boolean>;
  external_ref: string | null;
  public_code: string | null;
  link_code: string;
  refused_category: string | null;
  variant_group: string | null;
  parent_id: string | null;
  min_confidence: string | null;
  private: Defaulted<boolean>;
  min_answers: ColumnType<number | null, number | null | undefined, number | null>;
  tally: ColumnType<Record<string, number>, string | undefined, string>;
}

export interface AnswersTable {
  id: string;
  seq: Generated<number>;
  question_id: string;
  head_id: string | null;
  source: string;
  tier: number;
  country: string | null;
  age_band: string | null;
  gender: string | null;
  tags: Defaulted<string[]>;
  answer: Json;
  option_label: string | null;
  text: string | null;
  reason: string | null;
  credits: number;
  attestation_ref: string;
  dwell_ms: number | null;
  answered_at: Timestamp;
  pinned: Defaulted<boolean>;
  removed: Defaulted<boolean>;
  nonce: ColumnType<string | null, string | null | undefined, string | null>;
  locale: ColumnType<string | null, string | null | undefined, string | null>;
  interrupted: Defaulted<boolean>;
  /** −1 to 1; null without written words or a sentiment model for the language (migration 0008). */
  sentiment: ColumnType<number | null, number | null | undefined, number | null>;
  /** The text and reason in the account's language, and that language; null until translated (migration 0009). */
  translated_text: ColumnType<string | null, string | null | undefined, string | null>;
  translated_reason: ColumnType<string | null, string | null | undefined, string | null>;
  translated_to: ColumnType<string | null, string | null | undefined, string | null>;
  translation_attempts: Defaulted<number>;
}

export interface LinkStartsTable {
  nonce: string;
  question_id: string;
  created_at: Timestamp;
}

export interface LotUsesTable {
  question_id: string;
  lot_id: string;
  amount: number;
  returned: Defaulted<number>;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  request_hash: string;
  response_status: number;
  response_body: Json;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface OutboxEventsTable {
  id: string;
  seq: Generated<number>;
  account_id: string;
  type: string;
  payload: Json;
  unique_ref: string;
  created_at: Timestamp;
}

export interface AnswerFlagsTable {
  id: string;
  seq: Generated<number>;
  account_id: string;
  question_id: string;
  answer_id: string;
  attestation_ref: string;
  key_id: string | null;
  reason: string;
  note: string | null;
  status: Defaulted<string>;
  refund_credits: number;
  created_at: Timestamp;
  decided_at: Timestamp | null;
}

export interface DisputesTable {
  id: string;
  seq: Generated<number>;
  account_id: string;
  question_id: string;
  key_id: string | null;
  reason: string;
  status: Defaulted<string>;
  refund_credits: Defaulted<number>;
  decision_note: string | null;
  created_at: Timestamp;
  decided_at: Timestamp | null;
}

export interface ShareLinksTable {
  id: string;
  seq: Generated<number>;
  account_id: string;
  question_id: string;
  key_id: string | null;
  label: string | null;
  token_hash: Buffer;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface InsightsTable {
  question_id: string;
  kind: 'interim' | 'final' | null;
  payload: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  generated_at: Timestamp | null;
  claimed_at: Timestamp | null;
  final_for: Timestamp | null;
}

export interface DB {
  projects: ProjectsTable;
  questions: QuestionsTable;
  answers: AnswersTable;
  lot_uses: LotUsesTable;
  idempotency_keys: IdempotencyKeysTable;
  outbox_events: OutboxEventsTable;
  link_starts: LinkStartsTable;
  balances: BalancesTable;
  ledger_entries: LedgerEntriesTable;
  credit_lots: CreditLotsTable;
  key_daily_spend: KeyDailySpendTable;
  key_cap_charges: KeyCapChargesTable;
  drafts: DraftsTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  heads: HeadsTable;
  system_markers: SystemMarkersTable;
  insights: InsightsTable;
  answer_flags: AnswerFlagsTable;
  disputes: DisputesTable;
  share_links: ShareLinksTable;
}

export type { Generated };
