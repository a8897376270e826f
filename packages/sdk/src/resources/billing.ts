/** hc.billing: the price of a draft, the balance and the ledger (docs/credits.md). */
import type { Headcount } from '../client.ts';
import { paginate } from '../pagination.ts';
import type { BodyOf, CallOptions, QueryOf, ResponseOf, Schemas } from '../types.ts';

export type EstimateBody = BodyOf<'estimateQuestion'>;
export type LedgerQuery = QueryOf<'listLedger'>;
export type LedgerPage = ResponseOf<'listLedger'>;

export class Billing {
  constructor(private readonly client: Headcount) {}

  /**
   * POST /v1/billing/estimate: the price, ETA and every problem that would stop the ask
   * (`validation[]`), without spending. An empty `validation` with enough credits is a promise
   * that the ask of the same draft succeeds at exactly `creditsTotal`.
   */
  estimate(draft: EstimateBody['draft'], options: CallOptions & { surface?: EstimateBody['surface'] } = {}): Promise<Schemas['Estimate']> {
    const { surface, ...call } = options;
    return this.client.request('estimateQuestion', { ...call, body: surface === undefined ? { draft } : { draft, surface } });
  }

  /** GET /v1/billing/balance: credits, reserved, expiring, the key's cap left today. */
  balance(options: CallOptions = {}): Promise<Schemas['Balance']> {
    return this.client.request('getBalance', { ...options });
  }

  /** Every ledger row, newest first, across all pages. */
  ledger(query: LedgerQuery = {}, options: CallOptions = {}): AsyncGenerator<Schemas['LedgerRow'], void, undefined> {
    return paginate(
      (cursor) => this.ledgerPage({ ...query, cursor }, options),
      (page) => page.rows,
      query.cursor,
    );
  }

  /** One page of GET /v1/billing/ledger, as served: `{rows, nextCursor}`. */
  ledgerPage(query: LedgerQuery = {}, options: CallOptions = {}): Promise<LedgerPage> {
    return this.client.request('listLedger', { ...options, query });
  }
}
