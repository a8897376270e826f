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
  /** Null for connections (kind 'oauth'), which have no secret (migration 0015). */
  secret_hash: Buffer | null;
  scopes: string[];
  daily_cap_credits: number | null;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  /** The person who made the key in the portal; null for keys made with the admin CLI (migration 0012). */
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The portal form the key was made from: a resubmitted form makes no second key (migration 0012). */
  form_nonce: ColumnType<string | null, string | null | undefined, string | null>;
  /** 'key' for API keys, 'oauth' for connections an agent acts under (migration 0015; docs/agents.md). */
  kind: ColumnType<'key' | 'oauth', 'key' | 'oauth' | undefined, never>;
  /** The OAuth grant of a connection; null for keys. */
  grant_id: ColumnType<string | null, string | null | undefined, never>;
  /** The OAuth client of a connection; null for keys. */
  client_id: ColumnType<string | null, string | null | undefined, never>;
  /** Asks at or under this many credits need no confirmation through MCP (connections only). */
  auto_approve_credits: ColumnType<number | null, number | null | undefined, number | null>;
}

/** What oidc-provider stores (migration 0015): one row per model and id. */
export interface OauthStoreTable {
  model: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: Timestamp | null;
  consumed_at: Timestamp | null;
}

export interface PeopleTable {
  id: string;
  email: string;
  name: string | null;
  language: ColumnType<string, string | undefined, string>;
  personal_account_id: string;
  created_at: Timestamp;
  last_sign_in_at: Timestamp | null;
}

export type MembershipRole = 'owner' | 'admin' | 'member';

export interface MembershipsTable {
  account_id: string;
  person_id: string;
  role: MembershipRole;
  created_at: Timestamp;
}

export interface SignInChallengesTable {
  id: string;
  email: string;
  code_hash: Buffer;
  link_hash: Buffer;
  attempts: ColumnType<number, number | undefined, number>;
  ip: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface SessionsTable {
  id: string;
  person_id: string;
  token_hash: Buffer;
  account_id: string | null;
  user_agent: string | null;
  ip: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface InvitationsTable {
  id: string;
  account_id: string;
  email: string;
  role: MembershipRole;
  invited_by: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  declined_at: Timestamp | null;
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
  /** `credits.low` fires when available falls below this (0: never); docs/webhooks.md. */
  low_credits_threshold: ColumnType<number, number | undefined, number>;
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
  /** Credits of this lot's open reservations a refunded or disputed payment is still owed (migration 0024). */
  owed: Generated<number>;
  /** The checkout owed them. */
  owed_ref: string | null;
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
  /** Where a stopping rule was first met (migration 0021; settlement/settlement.schemas.ts reads it). */
  settlement: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
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
  /** The person who asked through a portal session (`askedBy`; migration 0012). */
  person_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** A click test's stimulus image size when it is one of our uploads (migration 0018; docs/uploads.md). */
  stimulus_width: ColumnType<number | null, number | null | undefined, number | null>;
  stimulus_height: ColumnType<number | null, number | null | undefined, number | null>;
  /** The interest audience asked and its lowest grade; both null for targeting (migration 0019; docs/audiences.md). */
  audience_id: ColumnType<string | null, string | null | undefined, string | null>;
  min_grade: ColumnType<number | null, number | null | undefined, number | null>;
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
  /** The member's grade in the question's audience when answering; null outside audiences (migration 0019). */
  grade: ColumnType<number | null, number | null | undefined, number | null>;
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

/** A price an MCP spending tool showed, which `confirm: true` may then reserve (migration 0025). */
export interface ShownPricesTable {
  account_id: string;
  price_key: string;
  credits: number;
  shown_at: Timestamp;
}

/** A portal form's nonce, claimed by its first post so a reload acts no second time (migration 0017). */
export interface FormNoncesTable {
  account_id: string;
  nonce: string;
  created_at: Timestamp;
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

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  disabled_reason: string | null;
  secret_box: string;
  previous_secret_box: string | null;
  previous_secret_until: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_delivery_at: Timestamp | null;
  last_status: number | null;
  last_success_at: Timestamp | null;
  failing_since: Timestamp | null;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  endpoint_id: string;
  event_id: string;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  schedule_from: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp | null;
  leased_until: Timestamp | null;
  last_attempt_at: Timestamp | null;
  last_status: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  created_at: Timestamp;
  completed_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  endpoint_id: string;
  event_id: string;
  attempt: number;
  at: Timestamp;
  status: number | null;
  error: string | null;
  duration_ms: number;
  response_body: string | null;
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

/** Support tickets (migration 0014; docs/support.md). `sender` is what the hourly limit counts against. */
export interface SupportTicketsTable {
  id: string;
  account_id: string | null;
  person_id: string | null;
  key_id: string | null;
  sender: string;
  email: string;
  language: string;
  locale: string | null;
  category: string | null;
  subject: string;
  app_version: string | null;
  status: Defaulted<'open' | 'answered' | 'closed'>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SupportMessagesTable {
  seq: Generated<number>;
  ticket_id: string;
  author: 'requester' | 'support';
  body: string;
  created_at: Timestamp;
  mailed_at: Timestamp | null;
}

/** What is kept of a post dropped as spam, for the hourly limit only (migration 0014). */
export interface SupportDroppedPostsTable {
  id: string;
  sender: string;
  reason: 'honeypot' | 'too_fast' | 'opened_in_future';
  created_at: Timestamp;
}

export type CheckoutStatus = 'open' | 'pending' | 'paid' | 'failed' | 'expired';

/** Buying a credit pack (migration 0013; docs/payments.md). */
export interface CheckoutsTable {
  id: string;
  account_id: string;
  person_id: string;
  provider: 'stripe' | 'test';
  provider_ref: string | null;
  payment_ref: string | null;
  method: 'card' | 'bank_transfer';
  pack: string;
  credits: number;
  amount: number;
  currency: 'GBP' | 'USD' | 'EUR' | 'CAD';
  status: CheckoutStatus;
  url: string | null;
  bank_transfer: ColumnType<Record<string, string> | null, string | null, string | null>;
  return_path: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  paid_at: Timestamp | null;
  clawed_back: Defaulted<number>;
  clawback_shortfall: Defaulted<number>;
  refunded_amount: Defaulted<number>;
  /** Each dispute of the payment: its amount and state, by the provider's dispute id. */
  disputes: ColumnType<Record<string, DisputeState>, string | undefined, string>;
}

export interface DisputeState {
  amount: number;
  state: 'open' | 'won' | 'lost';
}

export interface PaymentEventsTable {
  provider: string;
  event_id: string;
  type: string;
  checkout_id: string | null;
  received_at: Timestamp;
}

export interface PaymentCustomersTable {
  account_id: string;
  provider: string;
  customer_ref: string;
}

/** One grade of an audience as stored: what it is called, what it proves, what it pays a head per answer. */
export interface AudienceGradeRow {
  name: string;
  proves: string;
  payPence: number;
}

/** Interest audiences (migration 0019; docs/audiences.md). */
export interface AudiencesTable {
  id: string;
  slug: string;
  name: string;
  description: string;
  category: string;
  status: string;
  tags: string[];
  /** Grade 1 first (jsonb, written as a JSON string). */
  grades: ColumnType<AudienceGradeRow[], string, string>;
  open_to_join: boolean;
  private: boolean;
  countries: string[];
  languages: string[];
  simulated: Defaulted<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AudienceSponsorsTable {
  audience_id: string;
  account_id: string;
  created_at: Timestamp;
}

export interface AudienceMembersTable {
  audience_id: string;
  head_id: string;
  grade: number;
  graded_at: Timestamp;
}

/** Uploaded and imported files (migration 0018; docs/uploads.md). */
export interface UploadsTable {
  id: string;
  account_id: string;
  kind: 'image' | 'audio';
  source: 'upload' | 'import';
  status: 'pending' | 'receiving' | 'ready';
  content_type: string;
  ext: string;
  declared_bytes: number;
  token_hash: Buffer | null;
  source_url: string | null;
  stored_bytes: number | null;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  etag: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  completed_at: Timestamp | null;
}

/** The bytes of uploads under UPLOAD_STORAGE=postgres (migration 0018). */
export interface UploadBlobsTable {
  key: string;
  bytes: Buffer;
  created_at: CreatedAt;
}

export interface DB {
  projects: ProjectsTable;
  questions: QuestionsTable;
  answers: AnswersTable;
  lot_uses: LotUsesTable;
  idempotency_keys: IdempotencyKeysTable;
  shown_prices: ShownPricesTable;
  form_nonces: FormNoncesTable;
  outbox_events: OutboxEventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  link_starts: LinkStartsTable;
  balances: BalancesTable;
  ledger_entries: LedgerEntriesTable;
  credit_lots: CreditLotsTable;
  key_daily_spend: KeyDailySpendTable;
  key_cap_charges: KeyCapChargesTable;
  drafts: DraftsTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  oauth_store: OauthStoreTable;
  heads: HeadsTable;
  system_markers: SystemMarkersTable;
  insights: InsightsTable;
  answer_flags: AnswerFlagsTable;
  disputes: DisputesTable;
  share_links: ShareLinksTable;
  people: PeopleTable;
  memberships: MembershipsTable;
  sign_in_challenges: SignInChallengesTable;
  sessions: SessionsTable;
  invitations: InvitationsTable;
  checkouts: CheckoutsTable;
  payment_events: PaymentEventsTable;
  payment_customers: PaymentCustomersTable;
  support_tickets: SupportTicketsTable;
  support_messages: SupportMessagesTable;
  support_dropped_posts: SupportDroppedPostsTable;
  uploads: UploadsTable;
  audiences: AudiencesTable;
  audience_sponsors: AudienceSponsorsTable;
  audience_members: AudienceMembersTable;
  upload_blobs: UploadBlobsTable;
}

export type { Generated };
