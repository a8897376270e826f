import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { notFound, validationError, type ValidationItem } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { Project } from './projects.schemas.ts';
import type { ProjectChanges, ProjectWithCount, ProjectsRepository } from './projects.repository.ts';

/**
 * Projects group an account's questions (spec "Project", "Projects"). Deleting one leaves its
 * questions in the account outside any project (spec "Other lifecycle rules"); the foreign key
 * does that. The limits are checked here as well as by the route schemas, so MCP tools and the
 * CLI get the same answers as REST.
 */
export const PROJECT_LIMITS = { name: 80, description: 2000, goal: 500 } as const;

export interface NewProject {
  name: string;
  description?: string | null;
  goal?: string | null;
}

export interface ProjectPatch {
  name?: string;
  description?: string | null;
  goal?: string | null;
  bookmarked?: boolean;
  archived?: boolean;
}

const PATCHABLE = ['name', 'description', 'goal', 'bookmarked', 'archived'] as const;

const NOT_FOUND = 'No such project on this account.';

const view = (row: ProjectWithCount): Project => ({
  id: row.id,
  name: row.name,
  description: row.description,
  goal: row.goal,
  bookmarked: row.bookmarked,
  archived: row.archived,
  questionCount: row.question_count,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/** Names are trimmed and must not be blank. */
function checkName(value: string, problems: ValidationItem[]): string {
  const name = value.trim();
  if (name.length === 0) problems.push({ field: 'name', code: 'required', message: 'name must not be blank.' });
  else if (name.length > PROJECT_LIMITS.name) problems.push({ field: 'name', code: 'too_long', message: `name must be at most ${PROJECT_LIMITS.name} characters.` });
  return name;
}

/** Free text is trimmed; blank means none (null). */
function checkText(field: 'description' | 'goal', value: string | null, problems: ValidationItem[]): string | null {
  const text = value?.trim() ?? '';
  if (text.length > PROJECT_LIMITS[field]) problems.push({ field, code: 'too_long', message: `${field} must be at most ${PROJECT_LIMITS[field]} characters.` });
  return text === '' ? null : text;
}

export function createProjectsService(deps: { repo: ProjectsRepository; clock: Clock }) {
  const { repo, clock } = deps;

  async function get(actor: Actor, id: string): Promise<Project> {
    const row = await repo.find(actor.accountId, id);
    if (!row) throw notFound(NOT_FOUND);
    return view(row);
  }

  return {
    /** Projects in use (archived false, the default) or the archived ones, newest first. */
    async list(actor: Actor, options: { archived?: boolean } = {}): Promise<Project[]> {
      return (await repo.list(actor.accountId, options.archived ?? false)).map(view);
    },
    get,
    async create(actor: Actor, input: NewProject): Promise<Project> {
      const problems: ValidationItem[] = [];
      const name = checkName(input.name, problems);
      const description = checkText('description', input.description ?? null, problems);
      const goal = checkText('goal', input.goal ?? null, problems);
      if (problems.length) throw validationError(problems);
      const at = clock.now();
      const row = await repo.insert({ id: newId('project'), account_id: actor.accountId, name, description, goal, bookmarked: false, archived: false, created_at: at, updated_at: at });
      return view({ ...row, question_count: 0 });
    },
    /** Changes only the fields given; at least one is needed. `updatedAt` moves. */
    async update(actor: Actor, id: string, patch: ProjectPatch): Promise<Project> {
      if (!PATCHABLE.some((field) => patch[field] !== undefined)) {
        throw validationError([{ field: 'body', code: 'required', message: `Send at least one of: ${PATCHABLE.join(', ')}.` }]);
      }
      const problems: ValidationItem[] = [];
      const changes: ProjectChanges = {};
      if (patch.name !== undefined) changes.name = checkName(patch.name, problems);
      if (patch.description !== undefined) changes.description = checkText('description', patch.description, problems);
      if (patch.goal !== undefined) changes.goal = checkText('goal', patch.goal, problems);
      if (patch.bookmarked !== undefined) changes.bookmarked = patch.bookmarked;
      if (patch.archived !== undefined) changes.archived = patch.archived;
      if (problems.length) throw validationError(problems);
      if (!(await repo.update(actor.accountId, id, changes, clock.now()))) throw notFound(NOT_FOUND);
      return get(actor, id);
    },
    /** Its questions stay in the account, outside any project. */
    async remove(actor: Actor, id: string): Promise<void> {
      if (!(await repo.remove(actor.accountId, id))) throw notFound(NOT_FOUND);
    },
  };
}
export type ProjectsService = ReturnType<typeof createProjectsService>;
