/** hc.drafts: saved drafts (docs/drafts.md); ask one with `hc.questions.ask({ fromDraftId, draft })`. */
import type { Headcount } from '../client.ts';
import type { BodyOf, CallOptions, ResponseOf, Schemas } from '../types.ts';

export type DraftBody = BodyOf<'createDraft'>;

export class Drafts {
  constructor(private readonly client: Headcount) {}

  /** GET /v1/drafts: every saved draft of the account. */
  async list(options: CallOptions = {}): Promise<Schemas['DraftRecord'][]> {
    const { drafts } = await this.client.request('listDrafts', { ...options });
    return drafts;
  }

  /** POST /v1/drafts: saves a draft (only `type` is required). */
  create(body: DraftBody, options: CallOptions = {}): Promise<Schemas['DraftRecord']> {
    return this.client.request('createDraft', { ...options, body });
  }

  /** GET /v1/drafts/{id}. */
  get(id: string, options: CallOptions = {}): Promise<Schemas['DraftRecord']> {
    return this.client.request('getDraft', { ...options, path: { id } });
  }

  /** PUT /v1/drafts/{id}: replaces the whole draft. */
  replace(id: string, body: BodyOf<'replaceDraft'>, options: CallOptions = {}): Promise<Schemas['DraftRecord']> {
    return this.client.request('replaceDraft', { ...options, path: { id }, body });
  }

  /** DELETE /v1/drafts/{id}: `{ok: true}`. */
  delete(id: string, options: CallOptions = {}): Promise<ResponseOf<'deleteDraft'>> {
    return this.client.request('deleteDraft', { ...options, path: { id } });
  }
}
