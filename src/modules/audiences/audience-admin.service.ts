import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound, validationError, type ValidationCode, type ValidationItem } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { answeringCountry } from '../draft/countries.data.ts';
import { QUESTION_LANGUAGES } from '../draft/question-types.ts';
import { findTag } from '../draft/tags.data.ts';
import type { AudienceGradeRow } from '../../db/schema.ts';
import { audienceView } from './audience-view.ts';
import { AUDIENCE_CATEGORIES } from './audiences.data.ts';
import { MAX_GRADES, SLUG_PATTERN, type Audience, type AudienceStatus } from './audiences.schemas.ts';
import type { AudiencesRepository } from './audiences.repository.ts';

export interface NewAudience {
  slug: string;
  name: string;
  description: string;
  category: string;
  grades: AudienceGradeRow[];
  tags?: string[];
  countries?: string[];
  languages?: string[];
  openToJoin?: boolean;
  private?: boolean;
  /** The development seed's audiences, made of simulated heads. */
  simulated?: boolean;
}

const LIMITS = { name: 60, description: 280, gradeName: 40, proves: 160, payPence: 10_000 };

/** Every problem with a new audience at once, one item per field (the CLI prints them as the API's 400). */
export function audienceProblems(input: NewAudience): ValidationItem[] {
  const problems: ValidationItem[] = [];
  const bad = (field: string, code: ValidationCode, message: string) => problems.push({ field, code, message });
  if (!new RegExp(SLUG_PATTERN).test(input.slug) || input.slug.length < 3 || input.slug.length > 40) {
    bad('slug', 'invalid_format', 'slug: 3 to 40 lowercase letters and digits in words joined by single hyphens, e.g. rock-climbers.');
  }
  if (!input.name.trim() || input.name.length > LIMITS.name) bad('name', 'invalid_format', `name: 1 to ${LIMITS.name} characters.`);
  if (!input.description.trim() || input.description.length > LIMITS.description) bad('description', 'invalid_format', `description: 1 to ${LIMITS.description} characters.`);
  if (!(AUDIENCE_CATEGORIES as readonly string[]).includes(input.category)) bad('category', 'unknown_value', `category: one of ${AUDIENCE_CATEGORIES.join(', ')}.`);
  if (!Array.isArray(input.grades) || input.grades.length < 1 || input.grades.length > MAX_GRADES) {
    bad('grades', 'invalid_format', `grades: 1 to ${MAX_GRADES} grades, grade 1 first.`);
  } else {
    input.grades.forEach((g, i) => {
      const ok =
        typeof g === 'object' && g !== null &&
        typeof g.name === 'string' && g.name.trim() !== '' && g.name.length <= LIMITS.gradeName &&
        typeof g.proves === 'string' && g.proves.trim() !== '' && g.proves.length <= LIMITS.proves &&
        Number.isSafeInteger(g.payPence) && g.payPence >= 1 && g.payPence <= LIMITS.payPence;
      if (!ok) bad(`grades[${i}]`, 'invalid_format', `grades[${i}]: {name (1–${LIMITS.gradeName}), proves (1–${LIMITS.proves}), payPence (1–${LIMITS.payPence})}.`);
      else if (i > 0 && g.payPence < input.grades[i - 1].payPence) bad(`grades[${i}]`, 'not_allowed', 'A higher grade proves more and pays at least as much as the one below.');
    });
  }
  const unknownTags = (input.tags ?? []).filter((t) => !findTag(t));
  if (unknownTags.length) bad('tags', 'unknown_value', `Not catalogue tags (GET /v1/tags): ${unknownTags.join(', ')}.`);
  const unknownCountries = (input.countries ?? []).filter((c) => !answeringCountry(c));
  if (unknownCountries.length) bad('countries', 'unknown_value', `Not answering countries: ${unknownCountries.join(', ')}.`);
  const unknownLanguages = (input.languages ?? []).filter((l) => !(QUESTION_LANGUAGES as readonly string[]).includes(l));
  if (unknownLanguages.length) bad('languages', 'unknown_value', `languages: from ${QUESTION_LANGUAGES.join(', ')}.`);
  return problems;
}

/**
 * What operators do to audiences (the admin CLI, docs/audiences.md "Running audiences"): create
 * one (as a draft), open and close it, sponsor a private one for a team, and grade members. A
 * grade stamps the audience's tags on the head in the same transaction.
 */
export function createAudienceAdminService(deps: { db: Db; repo: AudiencesRepository; clock: Clock; accountExists(id: string): Promise<boolean> }) {
  const { db, repo, clock } = deps;

  async function mustFind(ref: string, tx: Db = db) {
    const row = await repo.find(ref, tx);
    if (!row) throw notFound(`No audience "${ref}" (give its slug or id).`);
    return row;
  }

  async function view(id: string, tx: Db = db): Promise<Audience> {
    const row = await mustFind(id, tx);
    return audienceView(row, (await repo.gradeCounts([row.id], tx)).get(row.id));
  }

  return {
    async create(input: NewAudience): Promise<Audience> {
      const problems = audienceProblems(input);
      if (problems.length) throw validationError(problems);
      if (await repo.find(input.slug)) throw new AppError('conflict', `An audience "${input.slug}" exists already.`);
      const now = clock.now();
      const row = await repo.insert({
        id: newId('audience'),
        slug: input.slug,
        name: input.name.trim(),
        description: input.description.trim(),
        category: input.category,
        status: 'draft',
        tags: input.tags ?? [],
        grades: JSON.stringify(input.grades.map((g) => ({ name: g.name.trim(), proves: g.proves.trim(), payPence: g.payPence }))),
        open_to_join: input.openToJoin ?? false,
        private: input.private ?? false,
        countries: input.countries ?? [],
        languages: input.languages ?? [],
        simulated: input.simulated ?? false,
        created_at: now,
        updated_at: now,
      });
      return audienceView(row);
    },

    async setStatus(ref: string, status: AudienceStatus): Promise<Audience> {
      const row = await mustFind(ref);
      await repo.setStatus(row.id, status, clock.now());
      return view(row.id);
    },

    /** Lets a team's account see and ask a private audience (`remove`: no longer). */
    async sponsor(ref: string, accountId: string, remove = false): Promise<{ audience: Audience; sponsors: string[] }> {
      const row = await mustFind(ref);
      if (!row.private) throw new AppError('conflict', `"${row.slug}" is public: every account can ask it. Only a private audience has sponsors.`);
      if (!(await deps.accountExists(accountId))) throw notFound(`No account "${accountId}".`);
      if (remove) await repo.removeSponsor(row.id, accountId);
      else await repo.addSponsor(row.id, accountId, clock.now());
      return { audience: await view(row.id), sponsors: await repo.sponsors(row.id) };
    },

    /** Sets a head's grade in an audience (joining it), or with `grade` null removes the membership. */
    async grade(ref: string, headId: string, grade: number | null): Promise<{ audience: string; headId: string; grade: number | null; previousGrade: number | null }> {
      return inTransaction(db, async (tx) => {
        const row = await mustFind(ref, tx);
        if (grade === null) {
          if (!(await repo.removeMember(row.id, headId, tx))) throw notFound(`The head "${headId}" is not a member of "${row.slug}".`);
          return { audience: row.slug, headId, grade: null, previousGrade: null };
        }
        if (!Number.isInteger(grade) || grade < 1 || grade > row.grades.length) {
          throw validationError([{ field: 'grade', code: 'invalid_format', message: `"${row.slug}" has grades 1 to ${row.grades.length}.` }]);
        }
        if (!(await repo.headExists(headId, tx))) throw notFound(`No head "${headId}".`);
        const previousGrade = await repo.setGrade(row.id, headId, grade, clock.now(), tx);
        await repo.stampTags([headId], row.tags, tx);
        return { audience: row.slug, headId, grade, previousGrade };
      });
    },

    /** Every audience with its status, privacy and sponsors (the admin's view: drafts and private ones too). */
    async list(): Promise<Array<Audience & { private: boolean; sponsors: string[] }>> {
      const rows = await repo.listAll();
      const counts = await repo.gradeCounts(rows.map((r) => r.id));
      return Promise.all(rows.map(async (row) => ({ ...audienceView(row, counts.get(row.id)), private: row.private, sponsors: await repo.sponsors(row.id) })));
    },
  };
}
export type AudienceAdminService = ReturnType<typeof createAudienceAdminService>;
