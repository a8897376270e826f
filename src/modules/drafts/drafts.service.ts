import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { SavedDraft } from '../draft/draft.schemas.ts';
import type { DraftRecord } from './drafts.schemas.ts';
import type { DraftRow, DraftsRepository } from './drafts.repository.ts';

/**
 * Saved drafts: work in progress, so only the field rules of the schema apply (lengths, enums);
 * the per-type rules are checked when the draft is estimated or asked (docs/drafts.md).
 */
export const MAX_DRAFTS_PER_ACCOUNT = 500;

const record = (row: DraftRow): DraftRecord => ({ id: row.id, draft: row.draft as SavedDraft, updatedAt: row.updated_at.toISOString() });

export function createDraftsService(deps: { repo: DraftsRepository; clock: Clock }) {
  const { repo, clock } = deps;
  return {
    async list(actor: Actor): Promise<DraftRecord[]> {
      return (await repo.list(actor.accountId, MAX_DRAFTS_PER_ACCOUNT)).map(record);
    },
    async get(actor: Actor, id: string): Promise<DraftRecord> {
      const row = await repo.find(actor.accountId, id);
      if (!row) throw notFound('No such draft on this account.');
      return record(row);
    },
    async create(actor: Actor, draft: SavedDraft): Promise<DraftRecord> {
      if ((await repo.count(actor.accountId)) >= MAX_DRAFTS_PER_ACCOUNT) {
        throw new AppError('conflict', `An account keeps at most ${MAX_DRAFTS_PER_ACCOUNT} drafts; delete some first.`);
      }
      const at = clock.now();
      return record(await repo.insert({ id: newId('draft'), account_id: actor.accountId, draft, created_at: at, updated_at: at }));
    },
    /** PUT replaces the whole draft. */
    async replace(actor: Actor, id: string, draft: SavedDraft): Promise<DraftRecord> {
      const row = await repo.update(actor.accountId, id, draft, clock.now());
      if (!row) throw notFound('No such draft on this account.');
      return record(row);
    },
    async remove(actor: Actor, id: string): Promise<void> {
      if (!(await repo.remove(actor.accountId, id))) throw notFound('No such draft on this account.');
    },
  };
}
export type DraftsService = ReturnType<typeof createDraftsService>;
