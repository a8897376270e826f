import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, RefOf } from '../../lib/typebox.ts';
import { SavedDraftSchema } from '../draft/draft.schemas.ts';

export const DraftRecordSchema = Closed(
  {
    id: Type.String(),
    draft: RefOf(SavedDraftSchema),
    updatedAt: DateTime(),
  },
  { $id: 'DraftRecord' },
);
export type DraftRecord = Static<typeof DraftRecordSchema>;
