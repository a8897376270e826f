import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable } from '../../lib/typebox.ts';

export const ProjectSchema = Closed(
  {
    id: Type.String(),
    name: Type.String({ maxLength: 80 }),
    description: Nullable(Type.String()),
    goal: Nullable(Type.String()),
    bookmarked: Type.Boolean(),
    archived: Type.Boolean(),
    questionCount: Type.Integer({ minimum: 0 }),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'Project' },
);
export type Project = Static<typeof ProjectSchema>;
