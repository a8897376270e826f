import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { balanceRow, DAY_MS, HOUR_MS, ledgerRows, ledgerSum, outcome, panelHeads, pricePerAnswer, questionRows } from '../helpers/money.ts';
import type { AskBody } from '../../src/modules/questions/ask.schemas.ts';
import type { QuestionDraft } from '../../src/modules/draft/draft.schemas.ts';
import type { Actor } from '../../src/lib/actor.ts';
import { leaderConfidence, meets, type Confidence } from '../../src/modules/draft/confidence.ts';
import { IDEMPOTENCY_WINDOW_MS } from '../../src/modules/questions/idempotency.ts';

/**
 * R7.1: a model-based property test of the money core. fast-check generates sequences of asks
 * (plain, with a follow-up, private, scheduled), retries with the same or another body, answers,
 * closes (window ends, early close, PATCH minAnswers, the sweep), cancels, refusals, added heads
 * (dry run, fresh or reused key), key revocations, grants (expiring or not), negative adjustments,
 * the credit-expiry job and the passing of time; a plain in-memory model predicts every outcome,
 * and after every step the balances row, GET /v1/billing/balance (credits, reserved, expiring),
 * every question's status and money, the ledger rows, the credit lots, the capped key's spend of
 * the day and `credits.reconcile()` must equal it.
 *
 * One app for the file, a fresh account (three keys, one of them capped, plus a reader key) per
 * run. Everything goes through the container's services, authenticated from the key's secret on
 * every call so revocation is exercised; about half the asks and cancels go through HTTP.
 *
 * Knobs: MONEY_MODEL_RUNS (25), MONEY_MODEL_COMMANDS (30 at most per run), MONEY_MODEL_SEED,
 * MONEY_MODEL_TIME_LIMIT_MS (150 s: runs stop, passing, after it). A long hunt:
 *   MONEY_MODEL_RUNS=1000 MONEY_MODEL_TIME_LIMIT_MS=450000 npx vitest run --project integration test/integration/money-model.test.ts
 */
type Json = Record<string, any>;
type Status = 'draft' | 'scheduled' | 'live' | 'complete' | 'underfilled' | 'cancelled' | 'refused';

const CAP = 700;
const OPEN_MS = 7 * DAY_MS;

interface MQ {
  id: string;
  parentId: string | null;
  children: string[];
  private: boolean;
  options: string[];
  status: Status;
  n: number;
  answered: number;
  perAnswer: number;
  /** What an answer of its draft costs (the day's free private question's perAnswer is 0): what heads added to it cost. */
  listPrice: number;
  tier: number;
  reserved: number;
  spent: number;
  refunded: number;
  closesAt: number | null;
  scheduledFor: number | null;
  minAnswers: number | null;
  minConfidence: Confidence | null;
  tally: Record<string, number>;
  heads: string[];
}

interface MKey {
  key: TestKey;
  cap: number | null;
  revoked: boolean;
}

interface Stored {
  hash: string;
  at: number;
  body: unknown;
}

interface Model {
  now: number;
  available: number;
  reserved: number;
  qs: Map<string, MQ>;
  order: string[];
  keys: MKey[];
  idem: Map<string, Stored>;
  /** Every idempotency key used, with what it was used for (asks keep their body for Retry). */
  used: Array<{ key: string; body: AskBody | null }>;
  capSpent: Map<string, number>;
  ledger: Array<{ kind: string; amount: number; ref: string | null }>;
  privateDays: Map<string, number>;
  nextKey: number;
  /** Credit lots by expiry instant ('never' for none): what is left in them. */
  lots: Map<string, { expiresAt: number | null; remaining: number }>;
  /** What each question's reservations took from each lot (by the question whose lots paid: the parent for follow-ups). */
  uses: Map<string, Map<string, { amount: number; returned: number }>>;
  /** What the capped key reserved for a question (the parent for follow-ups) by `keyId|day`, and what went back under its cap. */
  capCharges: Map<string, Map<string, { amount: number; returned: number }>>;
}

interface Real {
  t: TestApp;
  accountId: string;
  reader: TestKey;
}

let t: TestApp;
let heads: string[];
let headTier: Map<string, number>;
let headCursor = 0;
let runs = 0;
/** What the runs exercised, printed at the end so a weak generator shows. */
const stats: Record<string, number> = {};
const count = (what: string) => void (stats[what] = (stats[what] ?? 0) + 1);

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_PER_KEY: '1000000', RATE_LIMIT_PER_IP: '1000000' } });
  heads = await panelHeads(t.db, t.clock, 400);
  headTier = new Map((await t.db.selectFrom('heads').select(['id', 'tier']).execute()).map((h) => [h.id, h.tier]));
});
afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((k) => (value as Json)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((value as Json)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const isOpen = (status: Status) => status === 'live' || status === 'scheduled' || status === 'draft';
const hold = (q: MQ) => q.reserved - q.spent - q.refunded;

function followUpDraft(f: NonNullable<AskBody['then']>[number]): QuestionDraft {
  return { type: f.type ?? 'free_text', text: f.text, ...(f.options ? { options: f.options } : {}), n: f.n ?? 20, tier: (f.tier ?? 2) as 1 | 2 | 3 };
}

/** Closes a question in the model: refund what is left once, then settle its follow-ups. */
function closeModel(m: Model, q: MQ, status: Status): number {
  const refund = hold(q);
  if (refund > 0) {
    returnToLots(m, q.parentId ?? q.id, refund);
    returnCap(m, q.parentId ?? q.id, refund);
    m.ledger.push({ kind: 'refund', amount: refund, ref: q.id });
    m.available += refund;
    m.reserved -= refund;
    q.refunded += refund;
  }
  q.status = status;
  count(`close:${status}${refund > 0 ? '+refund' : ''}`);
  for (const childId of q.children) {
    const child = m.qs.get(childId)!;
    if (child.status !== 'draft') continue;
    const confidence = leaderConfidence(Object.values(q.tally), q.answered);
    if ((status === 'complete' || status === 'underfilled') && q.answered > 0 && meets(confidence, child.minConfidence)) {
      child.status = 'live';
      child.closesAt = m.now + OPEN_MS;
      count('follow-up:launched');
    } else {
      closeModel(m, child, 'cancelled');
    }
  }
  return Math.max(refund, 0);
}

const unexpired = (m: Model, lot: { expiresAt: number | null }) => lot.expiresAt === null || lot.expiresAt > m.now;

/** What can be spent now: credits in lots that have not expired, whether or not the expiry job has run. */
function spendable(m: Model): number {
  return [...m.lots.values()].filter((l) => unexpired(m, l)).reduce((sum, l) => sum + l.remaining, 0);
}

/** Takes credits out of the lots, soonest-expiring first (credits that never expire last), never from an expired lot. */
function consumeLots(m: Model, amount: number): Array<[string, number]> {
  const lots = [...m.lots.entries()].filter(([, l]) => l.remaining > 0 && unexpired(m, l)).sort(([, a], [, b]) => (a.expiresAt ?? Infinity) - (b.expiresAt ?? Infinity));
  const taken: Array<[string, number]> = [];
  let left = amount;
  for (const [key, lot] of lots) {
    if (left === 0) break;
    const take = Math.min(left, lot.remaining);
    lot.remaining -= take;
    taken.push([key, take]);
    left -= take;
  }
  if (left > 0) throw new Error(`model: lots hold less than ${amount}`);
  return taken;
}

function recordUses(m: Model, lotQuestionId: string, taken: Array<[string, number]>): void {
  const uses = m.uses.get(lotQuestionId) ?? new Map<string, { amount: number; returned: number }>();
  for (const [key, amount] of taken) {
    const use = uses.get(key) ?? { amount: 0, returned: 0 };
    use.amount += amount;
    uses.set(key, use);
  }
  m.uses.set(lotQuestionId, uses);
}

/** A refund goes back to the lots the reservation took from, latest-expiring (and never-expiring) first. */
function returnToLots(m: Model, lotQuestionId: string, amount: number): void {
  const uses = [...(m.uses.get(lotQuestionId) ?? new Map()).entries()]
    .filter(([, u]) => u.returned < u.amount)
    .sort(([a], [b]) => (m.lots.get(b)!.expiresAt ?? Infinity) - (m.lots.get(a)!.expiresAt ?? Infinity));
  let left = amount;
  for (const [key, use] of uses) {
    if (left === 0) break;
    const give = Math.min(left, use.amount - use.returned);
    use.returned += give;
    m.lots.get(key)!.remaining += give;
    left -= give;
  }
  if (left > 0) throw new Error(`model: refund of ${amount} exceeds what ${lotQuestionId} took from lots`);
}

/**
 * Reserves `amount` in the model as holds.reserve does: cap first, then available. Returns an
 * error code, or null and the lots it took (to be recorded under the question once its id is known).
 */
type CapCharge = { capKey: string; amount: number } | null;

function reserveModel(m: Model, key: MKey, amount: number, ref: string | null): { code: string } | { code: null; taken: Array<[string, number]>; charge: CapCharge } {
  if (amount === 0) return { code: null, taken: [], charge: null };
  const capKey = `${key.key.keyId}|${utcDay(m.now)}`;
  if (key.cap !== null && (m.capSpent.get(capKey) ?? 0) + amount > key.cap) return { code: 'spend_cap_exceeded' };
  // Expired credits are never spent, swept or not.
  if (spendable(m) < amount) {
    if (m.available >= amount) count('ask:refused-for-expired-credits-not-yet-swept');
    return { code: 'insufficient_credits' };
  }
  if (key.cap !== null) m.capSpent.set(capKey, (m.capSpent.get(capKey) ?? 0) + amount);
  m.available -= amount;
  m.reserved += amount;
  m.ledger.push({ kind: 'ask', amount: -amount, ref });
  return { code: null, taken: consumeLots(m, amount), charge: key.cap !== null ? { capKey, amount } : null };
}

function recordCharge(m: Model, lotQuestionId: string, charge: CapCharge): void {
  if (!charge) return;
  const charges = m.capCharges.get(lotQuestionId) ?? new Map<string, { amount: number; returned: number }>();
  const entry = charges.get(charge.capKey) ?? { amount: 0, returned: 0 };
  entry.amount += charge.amount;
  charges.set(charge.capKey, entry);
  m.capCharges.set(lotQuestionId, charges);
}

/** Net spend: a refund today of credits a capped key reserved today gives them back under its cap (docs/credits.md). */
function returnCap(m: Model, lotQuestionId: string, amount: number): void {
  let left = amount;
  for (const [capKey, charge] of [...(m.capCharges.get(lotQuestionId) ?? new Map()).entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (left === 0) break;
    if (!capKey.endsWith(`|${utcDay(m.now)}`) || charge.returned >= charge.amount) continue;
    const give = Math.min(left, charge.amount - charge.returned);
    charge.returned += give;
    m.capSpent.set(capKey, (m.capSpent.get(capKey) ?? 0) - give);
    left -= give;
    count('cap:returned');
  }
}

type Expect = { kind: 'error'; code: string } | { kind: 'replay'; body: unknown } | { kind: 'fresh' };

function idempotencyCheck(m: Model, key: string, hash: string): Expect | null {
  const stored = m.idem.get(key);
  if (!stored || m.now >= stored.at + IDEMPOTENCY_WINDOW_MS) return null;
  if (stored.hash !== hash) return { kind: 'error', code: 'idempotency_conflict' };
  return { kind: 'replay', body: stored.body };
}

// ---------------------------------------------------------------------------------------------
// Checking the real system against the model
// ---------------------------------------------------------------------------------------------

async function verify(m: Model, r: Real, label: string): Promise<void> {
  const { t } = r;
  const where = `after ${label}`;
  // The model agrees with itself.
  expect(m.reserved, `${where}: model reserved = Σ holds`).toBe([...m.qs.values()].reduce((s, q) => s + hold(q), 0));

  expect(await balanceRow(t.db, r.accountId), `${where}: balances row`).toEqual({ available: m.available, reserved: m.reserved });
  const response = await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: r.reader.auth });
  expect(response.statusCode, response.body).toBe(200);
  const balance = response.json();
  // The balances row still counts expired credits the job has not emptied; what the API shows never does.
  expect({ credits: balance.credits, reserved: balance.reserved }, `${where}: GET balance`).toEqual({ credits: spendable(m) + m.reserved, reserved: m.reserved });

  const rows = await questionRows(t.db, r.accountId);
  expect(rows.map((q) => q.id).sort(), `${where}: the questions`).toEqual([...m.order].sort());
  for (const row of rows) {
    const q = m.qs.get(row.id)!;
    expect(
      { status: row.status, n: row.n, answered: row.answered, perAnswer: row.credits_per_answer, reserved: row.credits_reserved, spent: row.credits_spent, refunded: row.credits_refunded, minAnswers: row.min_answers, parent: row.parent_id },
      `${where}: question ${row.id}`,
    ).toEqual({ status: q.status, n: q.n, answered: q.answered, perAnswer: q.perAnswer, reserved: q.reserved, spent: q.spent, refunded: q.refunded, minAnswers: q.minAnswers, parent: q.parentId });
  }

  expect(await ledgerSum(t.db, r.accountId), `${where}: ledger sum = available`).toBe(m.available);
  const order = (a: { kind: string; amount: number; ref: string | null }, b: typeof a) => stable([a.kind, a.ref, a.amount]).localeCompare(stable([b.kind, b.ref, b.amount]));
  // Expiry rows are one per lot, and the model keeps lots by instant: compare those by their sum.
  const expiries = (rows: Array<{ kind: string; amount: number }>) => rows.filter((e) => e.kind === 'expiry').reduce((sum, e) => sum + e.amount, 0);
  const ledger = (await ledgerRows(t.db, r.accountId)).map((e) => ({ kind: e.kind, amount: Number(e.amount), ref: e.ref }));
  expect(ledger.filter((e) => e.kind !== 'expiry').sort(order), `${where}: ledger rows`).toEqual(m.ledger.filter((e) => e.kind !== 'expiry').sort(order));
  expect(expiries(ledger), `${where}: expired credits`).toBe(expiries(m.ledger));

  const lots = await t.db
    .selectFrom('credit_lots')
    .select(['expires_at', sql<number>`sum(remaining)::bigint`.as('remaining')])
    .where('account_id', '=', r.accountId)
    .groupBy('expires_at')
    .execute();
  const lotsOf = (list: Array<{ expiresAt: number | null; remaining: number }>) =>
    list.filter((l) => l.remaining > 0).map((l) => `${l.expiresAt === null ? 'never' : new Date(l.expiresAt).toISOString()}=${l.remaining}`).sort();
  expect(lotsOf(lots.map((l) => ({ expiresAt: l.expires_at ? new Date(l.expires_at).getTime() : null, remaining: Number(l.remaining) }))), `${where}: credit lots`).toEqual(lotsOf([...m.lots.values()]));
  const expiring = [...m.lots.values()]
    .filter((l) => l.remaining > 0 && l.expiresAt !== null && l.expiresAt > m.now)
    .sort((a, b) => a.expiresAt! - b.expiresAt!)
    .map((l) => ({ credits: l.remaining, expiresAt: new Date(l.expiresAt!).toISOString() }));
  expect(balance.expiring, `${where}: expiring credits`).toEqual(expiring);

  const capped = m.keys.find((k) => k.cap !== null)!;
  const spend = await t.db.selectFrom('key_daily_spend').select('spent').where('key_id', '=', capped.key.keyId).where('day', '=', utcDay(m.now) as never).executeTakeFirst();
  expect(Number(spend?.spent ?? 0), `${where}: today's spend of the capped key`).toBe(m.capSpent.get(`${capped.key.keyId}|${utcDay(m.now)}`) ?? 0);

  expect(await t.container.credits.reconcile(), `${where}: reconcile`).toEqual([]);
}

async function actorOf(r: Real, key: MKey): Promise<{ ok: true; actor: Actor } | { ok: false; code: string }> {
  const result = await outcome(r.t.container.accounts.authenticate(key.key.secret));
  return result.ok ? { ok: true, actor: result.value } : { ok: false, code: result.code };
}

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

type Cmd = fc.AsyncCommand<Model, Real>;
const pickOf = <T>(list: readonly T[], pick: number): T => list[pick % list.length];

/** Ask (fresh key) or retry (a key used before), through the service or HTTP; model first. */
async function runAsk(m: Model, r: Real, keyIndex: number, idemKey: string, body: AskBody, viaHttp: boolean, label: string): Promise<void> {
  const key = m.keys[keyIndex];
  // ----- model
  let expected: Expect;
  if (key.revoked) expected = { kind: 'error', code: 'unauthorized' };
  else expected = idempotencyCheck(m, idemKey, stable({ ask: body })) ?? { kind: 'fresh' };
  const isPrivate = body.privateDeclaration !== undefined;
  const freePrivate = isPrivate && (m.privateDays.get(utcDay(m.now)) ?? 0) === 0;
  const perAnswer = freePrivate ? 0 : pricePerAnswer(body.draft);
  const n = body.draft.n ?? 50;
  const followUps = (body.then ?? []).map(followUpDraft);
  const total = perAnswer * n + followUps.reduce((s, f) => s + pricePerAnswer(f) * (f.n ?? 20), 0);
  let taken: Array<[string, number]> = [];
  let charge: CapCharge = null;
  const scheduledFor = body.draft.scheduledFor ? new Date(body.draft.scheduledFor).getTime() : null;
  // A stored ask replays even once its scheduledFor has passed; a fresh one must be in the future.
  if (expected.kind === 'fresh' && scheduledFor !== null && scheduledFor <= m.now) expected = { kind: 'error', code: 'validation_failed' };
  if (expected.kind === 'fresh') {
    // The ledger ref and the lots' question are filled in once the id is known.
    const reserved = reserveModel(m, key, total, null);
    if ('taken' in reserved) {
      taken = reserved.taken;
      charge = reserved.charge;
    } else expected = { kind: 'error', code: reserved.code };
  }
  if (!m.used.some((u) => u.key === idemKey)) m.used.push({ key: idemKey, body });

  // ----- real
  let got: { ok: true; body: Json; replayed: boolean } | { ok: false; code: string };
  if (viaHttp) {
    const response = await r.t.inject({
      method: 'POST',
      url: '/v2/questions',
      headers: { ...key.key.auth, 'idempotency-key': idemKey, 'content-type': 'application/json' },
      payload: body,
    });
    if (response.statusCode === 201) got = { ok: true, body: response.json(), replayed: response.headers['idempotent-replayed'] === 'true' };
    else {
      expect(response.statusCode, `${label}: ${response.body}`).toBeLessThan(500);
      got = { ok: false, code: response.json().error.code };
    }
  } else {
    const who = await actorOf(r, key);
    if (!who.ok) got = who;
    else {
      const result = await outcome(r.t.container.asks.ask(who.actor, body, idemKey));
      got = result.ok ? { ok: true, body: JSON.parse(JSON.stringify(result.value.body)), replayed: result.value.replayed } : { ok: false, code: result.code };
    }
  }

  count(`ask:${expected.kind === 'error' ? expected.code : expected.kind}${viaHttp ? ':http' : ''}`);
  // ----- compare
  if (expected.kind === 'error') {
    expect(got, label).toMatchObject({ ok: false, code: expected.code });
    return;
  }
  expect(got.ok, `${label}: ${JSON.stringify(got)}`).toBe(true);
  if (!got.ok) return;
  if (expected.kind === 'replay') {
    expect(got.replayed, `${label}: replayed`).toBe(true);
    expect(got.body, `${label}: the stored body`).toEqual(expected.body);
    return;
  }
  expect(got.replayed, `${label}: not a replay`).toBe(false);
  const question = got.body.question as Json;
  expect({ status: question.status, n: question.n, perAnswer: question.creditsPerAnswer, reserved: question.creditsReserved, answered: question.answered, spent: question.creditsSpent }).toEqual({
    status: scheduledFor === null ? 'live' : 'scheduled',
    n,
    perAnswer,
    reserved: perAnswer * n,
    answered: 0,
    spent: 0,
  });
  // Fill in what only the server knows: the ids.
  if (total > 0) m.ledger[m.ledger.length - 1].ref = question.id;
  recordUses(m, question.id, taken);
  recordCharge(m, question.id, charge);
  if (isPrivate) m.privateDays.set(utcDay(m.now), (m.privateDays.get(utcDay(m.now)) ?? 0) + 1);
  m.idem.set(idemKey, { hash: stable({ ask: body }), at: m.now, body: got.body });
  const base = { children: [], answered: 0, spent: 0, refunded: 0, minAnswers: null, tally: {}, heads: [] as string[] };
  const main: MQ = {
    ...base,
    id: question.id,
    parentId: null,
    private: isPrivate,
    options: body.draft.options!.map((o) => o.label),
    status: scheduledFor === null ? 'live' : 'scheduled',
    scheduledFor,
    n,
    perAnswer,
    listPrice: pricePerAnswer(body.draft),
    tier: body.draft.tier ?? 1,
    reserved: perAnswer * n,
    closesAt: (scheduledFor ?? m.now) + OPEN_MS,
    minConfidence: null,
    children: [],
    tally: {},
    heads: [],
  };
  m.qs.set(main.id, main);
  m.order.push(main.id);
  if (followUps.length) {
    const children = await r.t.db.selectFrom('questions').select('id').where('parent_id', '=', main.id).orderBy('seq').execute();
    expect(children.length, `${label}: follow-ups created`).toBe(followUps.length);
    children.forEach(({ id }, i) => {
      const f = followUps[i];
      const per = pricePerAnswer(f);
      m.qs.set(id, {
        ...base,
        id,
        parentId: main.id,
        private: false,
        options: (f.options ?? []).map((o) => o.label),
        status: 'draft',
        n: f.n ?? 20,
        perAnswer: per,
        listPrice: per,
        tier: f.tier ?? 2,
        reserved: per * (f.n ?? 20),
        closesAt: null,
        scheduledFor: null,
        minConfidence: (body.then![i].minConfidence as Confidence | undefined) ?? null,
        children: [],
        tally: {},
        heads: [],
      });
      main.children.push(id);
      m.order.push(id);
    });
  }
}

interface AskSpec {
  keyIndex: number;
  body: AskBody;
  viaHttp: boolean;
  /** A scheduled ask: scheduledFor is this many hours after the moment it is sent. */
  scheduleInHours: number | null;
}

class AskCmd implements Cmd {
  constructor(readonly spec: AskSpec) {}
  check = () => true;
  async run(m: Model, r: Real) {
    count('command');
    const idemKey = `idem-${m.nextKey++}`;
    const hours = this.spec.scheduleInHours;
    const body = hours === null ? this.spec.body : { ...this.spec.body, draft: { ...this.spec.body.draft, scheduledFor: new Date(m.now + hours * HOUR_MS).toISOString() } };
    await runAsk(m, r, this.spec.keyIndex, idemKey, body, this.spec.viaHttp, this.toString());
    await verify(m, r, this.toString());
  }
  toString = () => `Ask(key${this.spec.keyIndex}${this.spec.viaHttp ? ', http' : ''}, n=${this.spec.body.draft.n}, tier=${this.spec.body.draft.tier}${this.spec.body.then ? `, then n=${this.spec.body.then[0].n}${this.spec.body.then[0].minConfidence ? `/${this.spec.body.then[0].minConfidence}` : ''}` : ''}${this.spec.body.privateDeclaration ? ', private' : ''}${this.spec.scheduleInHours !== null ? `, in ${this.spec.scheduleInHours}h` : ''})`;
}

/** The same key again: with the same body (replay, or a fresh ask if the first failed or expired), or with another. */
class RetryCmd implements Cmd {
  constructor(readonly pick: number, readonly keyIndex: number, readonly other: boolean, readonly viaHttp: boolean) {}
  check = (m: Readonly<Model>) => m.used.some((u) => u.body !== null);
  async run(m: Model, r: Real) {
    count('command');
    const asks = m.used.filter((u) => u.body !== null);
    const { key, body } = pickOf(asks, this.pick);
    const sent: AskBody = this.other ? { ...body!, labels: [...(body!.labels ?? []), `other${this.pick % 5}`] } : body!;
    await runAsk(m, r, this.keyIndex, key, sent, this.viaHttp, this.toString());
    await verify(m, r, this.toString());
  }
  toString = () => `Retry${this.other ? 'Other' : ''}(#${this.pick}, key${this.keyIndex}${this.viaHttp ? ', http' : ''})`;
}

/** Heads answer one question (any status: closed ones must refuse), one answer per option given. */
class AnswerCmd implements Cmd {
  constructor(readonly pick: number, readonly choices: number[], readonly liveOnly: boolean) {}
  check = (m: Readonly<Model>) => m.order.length > 0;
  async run(m: Model, r: Real) {
    count('command');
    const live = m.order.filter((id) => m.qs.get(id)!.status === 'live');
    const q = m.qs.get(pickOf(this.liveOnly && live.length ? live : m.order, this.pick))!;
    for (const choice of this.choices) {
      // Who answers: a link answer for a private question, a head who answered the parent for a follow-up, else a fresh head.
      let headId: string | null;
      if (q.private) headId = null;
      else if (q.parentId) {
        const parent = m.qs.get(q.parentId)!;
        headId = parent.heads.find((h) => !q.heads.includes(h)) ?? null;
        if (headId === null) {
          if (q.status === 'live') return void (await verify(m, r, `${this.toString()} (no eligible head left)`));
          headId = heads[0];
        }
      } else {
        // The recorder takes the head's profile from the panel: the head's tier must reach the question's.
        do headId = heads[headCursor++ % heads.length];
        while (q.heads.includes(headId) || headTier.get(headId)! < q.tier);
      }
      const option = choice % q.options.length;
      // ----- model
      let expected: Json;
      if (q.status === 'scheduled') expected = { accepted: false, state: 'scheduled', reason: 'not_live' };
      else if (q.status !== 'live') expected = { accepted: false, state: q.answered >= q.n ? 'full' : 'closed', reason: 'not_live' };
      else if (q.answered >= q.n) expected = { accepted: false, state: 'full', reason: 'full' };
      // Past its window a question takes no more answers, even before the expiry job runs.
      else if (q.closesAt !== null && q.closesAt <= m.now) expected = { accepted: false, state: 'closed', reason: 'not_live' };
      else {
        q.answered += 1;
        q.spent += q.perAnswer;
        m.reserved -= q.perAnswer;
        q.tally[q.options[option]] = (q.tally[q.options[option]] ?? 0) + 1;
        if (headId) q.heads.push(headId);
        if (q.answered >= q.n || (q.minAnswers !== null && q.answered >= q.minAnswers)) {
          expected = { accepted: true, state: q.answered >= q.n ? 'full' : 'closed', completed: true };
          closeModel(m, q, 'complete');
        } else expected = { accepted: true, state: 'live' };
      }
      // ----- real
      const got = await r.t.container.answers.record(q.id, { headId, source: headId ? 'panel' : 'link', tier: headId ? 2 : 1 }, { option });
      count(`answer:${expected.accepted ? (expected.completed ? 'completed' : 'accepted') : expected.reason}`);
      const { attestationRef, ...rest } = got;
      expect(rest, `${this.toString()} on ${q.id}`).toEqual(expected);
      if (got.accepted) expect(attestationRef).toMatch(/^att_/);
    }
    await verify(m, r, this.toString());
  }
  toString = () => `Answer(#${this.pick}${this.liveOnly ? ' live' : ''}, [${this.choices.join(',')}])`;
}

/** The open window runs out: the clock moves past closesAt and the expiry timer fires. */
class ExpireCmd implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.order.length > 0;
  async run(m: Model, r: Real) {
    count('command');
    const q = m.qs.get(pickOf(m.order, this.pick))!;
    if (q.closesAt !== null && q.closesAt > m.now) {
      m.now = q.closesAt;
      r.t.clock.set(new Date(m.now));
    }
    let expected = false;
    if (q.status === 'live' && q.closesAt !== null && q.closesAt <= m.now) {
      closeModel(m, q, q.answered >= q.n ? 'complete' : 'underfilled');
      expected = true;
    }
    expect(await r.t.container.lifecycle.expire(q.id), this.toString()).toBe(expected);
    await verify(m, r, this.toString());
  }
  toString = () => `Expire(#${this.pick})`;
}

/** Close early (wait with minAnswers) or PATCH minAnswers. */
class CloseEarlyCmd implements Cmd {
  constructor(readonly pick: number, readonly minAnswers: number, readonly patchWith: number | null) {}
  check = (m: Readonly<Model>) => m.order.length > 0;
  async run(m: Model, r: Real) {
    count('command');
    const q = m.qs.get(pickOf(m.order, this.pick))!;
    if (this.patchWith === null) {
      let expected: boolean;
      if (q.status !== 'live') expected = !isOpen(q.status);
      else if (q.answered < this.minAnswers) expected = false;
      else {
        closeModel(m, q, 'complete');
        expected = true;
      }
      expect(await r.t.container.lifecycle.closeEarly(r.accountId, q.id, this.minAnswers), this.toString()).toBe(expected);
    } else {
      const key = m.keys[this.patchWith];
      let expectedCode: string | null = null;
      if (key.revoked) expectedCode = 'unauthorized';
      else if (this.minAnswers > q.n) expectedCode = 'validation_failed';
      else {
        q.minAnswers = this.minAnswers;
        if (q.status === 'live' && q.answered >= this.minAnswers) closeModel(m, q, 'complete');
      }
      const who = await actorOf(r, key);
      const got = who.ok ? await outcome(r.t.container.questions.patch(who.actor, q.id, { minAnswers: this.minAnswers })) : who;
      if (expectedCode) expect(got, this.toString()).toMatchObject({ ok: false, code: expectedCode });
      else {
        expect(got.ok, `${this.toString()}: ${JSON.stringify(got)}`).toBe(true);
        if (got.ok && 'value' in got) expect({ status: got.value.status, answered: got.value.answered, spent: got.value.creditsSpent, reserved: got.value.creditsReserved }).toEqual({ status: q.status, answered: q.answered, spent: q.spent, reserved: q.reserved });
      }
    }
    await verify(m, r, this.toString());
  }
  toString = () => (this.patchWith === null ? `CloseEarly(#${this.pick}, min=${this.minAnswers})` : `PatchMinAnswers(#${this.pick}, ${this.minAnswers}, key${this.patchWith})`);
}

class CancelCmd implements Cmd {
  constructor(readonly pick: number, readonly keyIndex: number, readonly viaHttp: boolean) {}
  check = (m: Readonly<Model>) => m.order.length > 0;
  async run(m: Model, r: Real) {
    count('command');
    const q = m.qs.get(pickOf(m.order, this.pick))!;
    const key = m.keys[this.keyIndex];
    let expected: { code: string } | { refund: number };
    if (key.revoked) expected = { code: 'unauthorized' };
    // A live question, and (extension) a scheduled one or a follow-up waiting for its parent.
    else if (!isOpen(q.status)) expected = { code: 'conflict' };
    else expected = { refund: closeModel(m, q, 'cancelled') };

    let got: { code: string } | { refund: number; status: string };
    if (this.viaHttp) {
      const response = await r.t.inject({ method: 'POST', url: `/v2/questions/${q.id}/cancel`, headers: key.key.auth });
      expect(response.statusCode, response.body).toBeLessThan(500);
      got = response.statusCode === 200 ? { refund: response.json().refundCredits, status: response.json().question.status } : { code: response.json().error.code };
    } else {
      const who = await actorOf(r, key);
      const result = who.ok ? await outcome(r.t.container.lifecycle.cancel(who.actor, q.id)) : who;
      got = result.ok && 'value' in result ? { refund: result.value.refundCredits, status: result.value.question.status } : { code: (result as { code: string }).code };
    }
    expect(got, this.toString()).toEqual('refund' in expected ? { ...expected, status: 'cancelled' } : expected);
    await verify(m, r, this.toString());
  }
  toString = () => `Cancel(#${this.pick}, key${this.keyIndex}${this.viaHttp ? ', http' : ''})`;
}

/** An operator refuses a question in review (question:refuse). */
class RefuseCmd implements Cmd {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.order.length > 0;
  async run(m: Model, r: Real) {
    count('command');
    const q = m.qs.get(pickOf(m.order, this.pick))!;
    const open = isOpen(q.status);
    if (open) closeModel(m, q, 'refused');
    const got = await outcome(r.t.container.lifecycle.refuse(q.id, 'hate'));
    if (open) expect(got.ok && got.value.status, this.toString()).toBe('refused');
    else expect(got, this.toString()).toMatchObject({ ok: false, code: 'conflict' });
    await verify(m, r, this.toString());
  }
  toString = () => `Refuse(#${this.pick})`;
}

class AddHeadsCmd implements Cmd {
  constructor(readonly pick: number, readonly keyIndex: number, readonly extra: number, readonly dryRun: boolean, readonly reuse: number | null) {}
  check = (m: Readonly<Model>) => m.order.length > 0;
  async run(m: Model, r: Real) {
    count('command');
    const reopenable = m.order.filter((id) => ['complete', 'underfilled'].includes(m.qs.get(id)!.status));
    const q = m.qs.get(pickOf(this.pick % 4 !== 0 && reopenable.length ? reopenable : m.order, this.pick))!;
    const key = m.keys[this.keyIndex];
    const closedOk = q.status === 'complete' || q.status === 'underfilled';
    const reusable = m.used;
    const idemKey = this.reuse !== null && reusable.length ? pickOf(reusable, this.reuse).key : `idem-${m.nextKey++}`;
    const hash = stable({ heads: q.id, n: this.extra });
    const body = { n: this.extra, ...(this.dryRun ? { dryRun: true } : {}) };
    // Adding heads reserves extra × creditsPerAnswer (docs/lifecycle.md), so the question may take
    // exactly `extra` more answers: the new target is what was answered plus extra.
    // The day's free private question adds heads at its draft's price (docs/asking.md "Adding heads").
    const per = q.perAnswer > 0 || !q.private ? q.perAnswer : q.listPrice;
    const quote = { n: this.extra, creditsPerAnswer: per, creditsTotal: this.extra * per, newTarget: q.answered + this.extra };

    // ----- model: a stored request replays (or conflicts) first, even when the question is live again by now.
    let expected: Expect | { kind: 'quote' };
    const stored = this.dryRun ? null : idempotencyCheck(m, idemKey, hash);
    if (key.revoked) expected = { kind: 'error', code: 'unauthorized' };
    else if (stored) expected = stored;
    else if (!closedOk) expected = { kind: 'error', code: 'conflict' };
    else if (this.dryRun) expected = { kind: 'quote' };
    else {
      expected = { kind: 'fresh' };
      // The `ask` row of added heads names the question whose lots paid: the parent for a follow-up.
      const reserved = reserveModel(m, key, this.extra * per, q.parentId ?? q.id);
      if ('taken' in reserved) {
        recordUses(m, q.parentId ?? q.id, reserved.taken);
        recordCharge(m, q.parentId ?? q.id, reserved.charge);
      }
      else expected = { kind: 'error', code: reserved.code };
    }
    if (!this.dryRun && !key.revoked && closedOk && !m.used.some((u) => u.key === idemKey)) m.used.push({ key: idemKey, body: null });

    // ----- real
    count(`add-heads:${expected.kind === 'error' ? expected.code : expected.kind}`);
    const who = await actorOf(r, key);
    const got = who.ok ? await outcome(r.t.container.addHeads.addHeads(who.actor, q.id, body, this.dryRun ? undefined : idemKey)) : who;
    if (expected.kind === 'error') expect(got, this.toString()).toMatchObject({ ok: false, code: expected.code });
    else {
      expect(got.ok, `${this.toString()}: ${JSON.stringify(got)}`).toBe(true);
      const value = (got as { value: { body: Json; replayed: boolean } }).value;
      const sent = JSON.parse(JSON.stringify(value.body));
      if (expected.kind === 'quote') {
        expect(sent.question).toBeUndefined();
        expect(sent.quote).toMatchObject(quote);
      } else if (expected.kind === 'replay') {
        expect(value.replayed).toBe(true);
        expect(sent).toEqual(expected.body);
      } else {
        expect(value.replayed).toBe(false);
        expect(sent.quote).toMatchObject(quote);
        expect(sent.creditsReserved).toBe(quote.creditsTotal);
        q.n = q.answered + this.extra;
        q.perAnswer = per;
        q.reserved += quote.creditsTotal;
        q.status = 'live';
        q.closesAt = m.now + OPEN_MS;
        q.minAnswers = null;
        expect({ status: sent.question.status, n: sent.question.n, reserved: sent.question.creditsReserved }).toEqual({ status: 'live', n: q.n, reserved: q.reserved });
        m.idem.set(idemKey, { hash, at: m.now, body: sent });
      }
    }
    await verify(m, r, this.toString());
  }
  toString = () => `AddHeads(#${this.pick}, key${this.keyIndex}, +${this.extra}${this.dryRun ? ', dryRun' : ''}${this.reuse !== null ? `, reuse #${this.reuse}` : ''})`;
}

class RevokeCmd implements Cmd {
  constructor(readonly keyIndex: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    count('command');
    const key = m.keys[this.keyIndex];
    const view = await r.t.container.accounts.revokeKey(key.key.keyId);
    expect(view.revokedAt).not.toBeNull();
    key.revoked = true;
    expect(await outcome(r.t.container.accounts.authenticate(key.key.secret))).toMatchObject({ ok: false, code: 'unauthorized' });
    await verify(m, r, this.toString());
  }
  toString = () => `Revoke(key${this.keyIndex})`;
}

/** The safety-net sweep (every minute in production): scheduled questions go live, expired ones close. */
class SweepCmd implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    count('command');
    const due = m.order.map((id) => m.qs.get(id)!).filter((q) => (q.status === 'scheduled' && q.scheduledFor! <= m.now) || (q.status === 'live' && q.closesAt !== null && q.closesAt <= m.now));
    for (const q of due) {
      if (q.status === 'scheduled') {
        q.status = 'live';
        q.closesAt = m.now + OPEN_MS;
        count('sweep:went-live');
      } else closeModel(m, q, q.answered >= q.n ? 'complete' : 'underfilled');
    }
    // Other runs' accounts have due questions too; the sweep takes 500 at a time.
    while ((await r.t.container.lifecycle.sweep()) > 0);
    await verify(m, r, this.toString());
  }
  toString = () => 'Sweep()';
}

/** An operator's grant: a bonus (sometimes expiring), or a negative adjustment. */
class GrantCmd implements Cmd {
  constructor(readonly amount: number, readonly expiresInDays: number | null) {}
  check = () => true;
  async run(m: Model, r: Real) {
    let expectedCode: string | null = null;
    if (this.amount < 0) {
      count(`credits:adjustment${spendable(m) + this.amount < 0 ? ':refused' : ''}`);
      if (spendable(m) + this.amount < 0) expectedCode = 'insufficient_credits';
      else {
        consumeLots(m, -this.amount);
        m.available += this.amount;
        m.ledger.push({ kind: 'adjustment', amount: this.amount, ref: null });
      }
    } else {
      count(`credits:bonus${this.expiresInDays === null ? '' : ':expiring'}`);
      const expiresAt = this.expiresInDays === null ? null : m.now + this.expiresInDays * DAY_MS;
      const key = String(expiresAt ?? 'never');
      const lot = m.lots.get(key) ?? { expiresAt, remaining: 0 };
      lot.remaining += this.amount;
      m.lots.set(key, lot);
      m.available += this.amount;
      m.ledger.push({ kind: 'bonus', amount: this.amount, ref: null });
    }
    const result = await outcome(
      r.t.container.credits.grant({ accountId: r.accountId, amount: this.amount, reason: 'Correction in the model test', ...(this.amount < 0 ? { kind: 'adjustment' as const } : {}), expiresInDays: this.expiresInDays }),
    );
    if (expectedCode) expect(result, this.toString()).toMatchObject({ ok: false, code: expectedCode });
    else expect(result.ok && result.value.balance, this.toString()).toEqual({ available: spendable(m), reserved: m.reserved });
    await verify(m, r, this.toString());
  }
  toString = () => `Grant(${this.amount}${this.expiresInDays !== null ? `, expires in ${this.expiresInDays}d` : ''})`;
}

/** The expiry job: lots past their date are emptied, one `expiry` row each. */
class ExpireCreditsCmd implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    count('command');
    // Two runs of the job never share an instant (an expiry row is keyed by lot and run time).
    m.now += 1000;
    r.t.clock.set(new Date(m.now));
    for (const lot of m.lots.values()) {
      if (lot.remaining > 0 && lot.expiresAt !== null && lot.expiresAt <= m.now) {
        m.ledger.push({ kind: 'expiry', amount: -lot.remaining, ref: null });
        count('credits:expired');
        m.available -= lot.remaining;
        lot.remaining = 0;
      }
    }
    // Other runs' accounts may have lots due as well; the job takes up to 200 at a time.
    while ((await r.t.container.credits.expireDue()) > 0);
    await verify(m, r, this.toString());
  }
  toString = () => 'ExpireCredits()';
}

/** Time passes (idempotency keys expire after 24 hours; the cap starts again each UTC day). */
class TickCmd implements Cmd {
  constructor(readonly hours: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    count('command');
    m.now += this.hours * HOUR_MS;
    r.t.clock.set(new Date(m.now));
    await verify(m, r, this.toString());
  }
  toString = () => `Tick(${this.hours}h)`;
}

// ---------------------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------------------

const LABELS = ['Penny', 'Pocket', 'Purse'];
const askArb: fc.Arbitrary<AskSpec> = fc
  .record({
    keyIndex: fc.nat({ max: 2 }),
    options: fc.integer({ min: 2, max: 3 }),
    n: fc.integer({ min: 10, max: 15 }),
    tier: fc.constantFrom(1 as const, 1 as const, 2 as const),
    word: fc.nat({ max: 9 }),
    kind: fc.constantFrom('plain', 'plain', 'then', 'then', 'private', 'scheduled'),
    scheduleInHours: fc.integer({ min: 1, max: 48 }),
    thenN: fc.integer({ min: 10, max: 12 }),
    minConfidence: fc.constantFrom(undefined, undefined, 'medium' as const, 'high' as const),
    viaHttp: fc.boolean(),
  })
  .map((s) => ({
    keyIndex: s.keyIndex,
    viaHttp: s.viaHttp,
    scheduleInHours: s.kind === 'scheduled' ? s.scheduleInHours : null,
    body: {
      draft: { type: 'single_choice', text: `Which name would you pick for a savings app, round ${s.word}?`, options: LABELS.slice(0, s.options).map((label) => ({ label })), n: s.n, tier: s.tier },
      ...(s.kind === 'then'
        ? { then: [{ type: 'single_choice' as const, text: 'Would you download it this week?', options: [{ label: 'Yes' }, { label: 'No' }], n: s.thenN, tier: 1, ...(s.minConfidence ? { minConfidence: s.minConfidence } : {}) }] }
        : {}),
      ...(s.kind === 'private' ? { privateDeclaration: { recipients: 12 } } : {}),
    } as AskBody,
  }));

const pick = fc.nat({ max: 1000 });
const keyIndex = fc.nat({ max: 2 });
const weighted = <T>(weight: number, arb: fc.Arbitrary<T>): Array<fc.Arbitrary<T>> => Array.from({ length: weight }, () => arb);
const commands = fc.commands(
  [
    ...weighted(4, askArb.map((spec): Cmd => new AskCmd(spec))),
    ...weighted(2, fc.tuple(pick, keyIndex, fc.boolean(), fc.boolean()).map(([p, k, other, http]): Cmd => new RetryCmd(p, k, other, http))),
    ...weighted(
      3,
      fc.tuple(pick, fc.oneof(fc.array(fc.constant(0), { minLength: 8, maxLength: 16 }), fc.array(fc.nat({ max: 2 }), { minLength: 8, maxLength: 16 }))).map(([p, c]): Cmd => new AnswerCmd(p, c, true)),
    ),
    fc.tuple(pick, fc.array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 6 }), fc.boolean()).map(([p, c, live]): Cmd => new AnswerCmd(p, c, live)),
    pick.map((p): Cmd => new ExpireCmd(p)),
    fc.tuple(pick, fc.integer({ min: 1, max: 16 }), fc.option(keyIndex, { nil: null })).map(([p, min, patch]): Cmd => new CloseEarlyCmd(p, min, patch)),
    fc.tuple(pick, keyIndex, fc.boolean()).map(([p, k, http]): Cmd => new CancelCmd(p, k, http)),
    pick.map((p): Cmd => new RefuseCmd(p)),
    ...weighted(3, fc.tuple(pick, keyIndex, fc.integer({ min: 1, max: 5 }), fc.boolean(), fc.option(pick, { nil: null, freq: 3 })).map(([p, k, extra, dry, reuse]): Cmd => new AddHeadsCmd(p, k, extra, dry, reuse))),
    keyIndex.map((k): Cmd => new RevokeCmd(k)),
    fc.tuple(fc.integer({ min: 50, max: 1500 }), fc.option(fc.integer({ min: 1, max: 10 }), { nil: null })).map(([a, days]): Cmd => new GrantCmd(a, days)),
    fc.integer({ min: 10, max: 800 }).map((a): Cmd => new GrantCmd(-a, null)),
    fc.constant(null).map((): Cmd => new ExpireCreditsCmd()),
    fc.constant(null).map((): Cmd => new SweepCmd()),
    fc.integer({ min: 1, max: 30 }).map((h): Cmd => new TickCmd(h)),
    // Days at once: expiring grants (1 to 10 days) pass their date with the job not yet run.
    ...weighted(2, fc.integer({ min: 1, max: 6 }).map((d): Cmd => new TickCmd(d * 24))),
  ],
  { maxCommands: Number(process.env.MONEY_MODEL_COMMANDS ?? 30), size: 'max' },
);

async function setup(initial: number): Promise<{ model: Model; real: Real }> {
  runs += 1;
  count('run');
  const first = await t.makeKey(['questions:read', 'questions:write'], null);
  const accountId = first.accountId;
  const second = await t.makeKey(['questions:read', 'questions:write'], null, { accountId });
  const capped = await t.makeKey(['questions:read', 'questions:write'], CAP, { accountId });
  const reader = await t.makeKey(['account:read'], null, { accountId });
  const model: Model = {
    now: t.clock.now().getTime(),
    available: 0,
    reserved: 0,
    qs: new Map(),
    order: [],
    keys: [
      { key: first, cap: null, revoked: false },
      { key: second, cap: null, revoked: false },
      { key: capped, cap: CAP, revoked: false },
    ],
    idem: new Map(),
    used: [],
    capSpent: new Map(),
    ledger: [],
    privateDays: new Map(),
    nextKey: 0,
    lots: new Map(),
    uses: new Map(),
    capCharges: new Map(),
  };
  const real: Real = { t, accountId, reader };
  if (initial > 0) {
    await t.container.credits.grant({ accountId, amount: initial, reason: 'Starting credits' });
    model.available = initial;
    model.ledger.push({ kind: 'bonus', amount: initial, ref: null });
    model.lots.set('never', { expiresAt: null, remaining: initial });
  }
  await verify(model, real, 'setup');
  return { model, real };
}

describe('the money core against a plain model (R7.1)', () => {
  it('keeps balances, holds, the ledger and every question equal to the model after every step', async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constant(0), fc.noBias(fc.integer({ min: 150, max: 3000 })), fc.noBias(fc.integer({ min: 150, max: 3000 }))), commands, async (initial, cmds) => {
        await fc.asyncModelRun(() => setup(initial), cmds);
      }),
      { numRuns: Number(process.env.MONEY_MODEL_RUNS ?? 25), interruptAfterTimeLimit: Number(process.env.MONEY_MODEL_TIME_LIMIT_MS ?? 150_000), seed: process.env.MONEY_MODEL_SEED ? Number(process.env.MONEY_MODEL_SEED) : undefined, verbose: 1 },
    );
    // Surfaces in the reporter's output with --reporter=verbose; useful when tuning numRuns.
    expect(runs).toBeGreaterThan(0);
    console.info(`money model: ${runs} runs in ${Date.now() - started} ms`, JSON.stringify(Object.fromEntries(Object.entries(stats).sort())));
  }, Number(process.env.MONEY_MODEL_TIME_LIMIT_MS ?? 150_000) + 150_000);
});
