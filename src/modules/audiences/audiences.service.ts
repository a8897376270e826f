import type { Clock } from '../../lib/clock.ts';
import { notFound, type ValidationItem } from '../../lib/errors.ts';
import { findTag } from '../draft/tags.data.ts';
import { gradePrice, type AudiencePriceInput } from '../draft/pricing.ts';
import type { AudienceReach } from '../panel/targeting.ts';
import { audienceView } from './audience-view.ts';
import type { Audience, AudienceListQuery } from './audiences.schemas.ts';
import type { AudienceRow, AudiencesRepository } from './audiences.repository.ts';

/** Members change slowly; the public list (with its size bands) is recomputed at most this often. */
const CACHE_MS = 60_000;

/** The draft-only fields that ask an audience (spec "QuestionDraft", draft-only additions). */
export interface AudienceFields {
  interestAudienceId?: string;
  minGrade?: number;
  interestPrice?: { creditsPerAnswer: number; bonusCredits: number };
  targeting?: { countries?: string[]; tags?: string[]; ageBands?: string[]; genders?: string[]; verifiedAge?: boolean };
}

/** An audience an ask may use: who it reaches and what it pays. */
export interface AudienceChoice {
  reach: AudienceReach;
  price: AudiencePriceInput;
}

/** Who is asking (null: no credential) and, for `open=1`, the caller's country when known. */
export interface ListContext {
  accountId: string | null;
  callerCountry: string | null;
}

/** One order for every list, whether or not private audiences are merged in (not the database's collation). */
const byName = (a: Audience, b: Audience) => a.name.localeCompare(b.name, 'en') || a.slug.localeCompare(b.slug, 'en');

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** The filters of GET /v1/interest-audiences (spec "Audiences"), on audiences already visible. */
function matches(audience: Audience, query: AudienceListQuery, callerCountry: string | null): boolean {
  if (query.category && audience.category !== query.category) return false;
  if (query.country && audience.countries.length && !audience.countries.includes(query.country)) return false;
  if (query.lang) {
    const lang = query.lang.toLowerCase().split('-')[0];
    if (audience.languages.length && !audience.languages.includes(lang)) return false;
  }
  if (query.open === '1') {
    const from = query.country ?? callerCountry;
    if (!audience.openToJoin) return false;
    if (from && audience.countries.length && !audience.countries.includes(from)) return false;
  }
  if (query.q?.trim()) {
    const words = fold(query.q).split(/\s+/).filter(Boolean);
    const haystack = fold([audience.name, audience.description, audience.slug, ...audience.tags.map((t) => findTag(t)?.label ?? t)].join(' '));
    if (!words.every((word) => haystack.includes(word))) return false;
  }
  return true;
}

const hasTargeting = (t: AudienceFields['targeting']) =>
  !!t && (!!t.countries?.length || !!t.tags?.length || !!t.ageBands?.length || !!t.genders?.length || t.verifiedAge === true);

/**
 * Interest audiences (docs/audiences.md): the public catalogue, and what an ask of one reaches and
 * costs. Creating, opening, sponsoring and grading are the admin CLI's (audience-admin.service.ts).
 */
export function createAudiencesService(deps: { repo: AudiencesRepository; clock: Clock }) {
  const { repo, clock } = deps;
  let publicCache: { at: number; data: Promise<Audience[]> } | null = null;

  async function views(rows: AudienceRow[]): Promise<Audience[]> {
    const counts = await repo.gradeCounts(rows.map((r) => r.id));
    return rows.map((row) => audienceView(row, counts.get(row.id)));
  }

  /** Public open audiences with their bands, computed at most once a minute. */
  function publicOpen(): Promise<Audience[]> {
    const now = clock.now().getTime();
    if (!publicCache || now - publicCache.at >= CACHE_MS) {
      const data = repo.listPublicOpen().then(views).then((list) => list.sort(byName));
      publicCache = { at: now, data };
      data.catch(() => (publicCache = null));
    }
    return publicCache.data;
  }

  return {
    /** GET /v1/interest-audiences: open audiences, plus with `mine=asking` the private ones the caller's account sponsors. */
    async list(query: AudienceListQuery, context: ListContext): Promise<Audience[]> {
      let audiences = await publicOpen();
      if (query.mine === 'asking' && context.accountId) {
        const sponsored = await views(await repo.listSponsoredOpen(context.accountId));
        audiences = [...audiences, ...sponsored].sort(byName);
      }
      return audiences.filter((a) => matches(a, query, context.callerCountry));
    },

    /** GET /v1/interest-audiences/{slug}: open or closed; a private one only for its sponsors (else 404, as if it did not exist). */
    async get(ref: string, accountId: string | null): Promise<Audience> {
      const row = await repo.findVisible(ref, accountId);
      if (!row) throw notFound('No such audience; see GET /v1/interest-audiences.');
      return (await views([row]))[0];
    },

    /**
     * The audience a draft names (interestAudienceId, minGrade, interestPrice), checked as an ask
     * needs it: one the caller may ask, open, at a grade it has, without targeting beside it, at no
     * more than the price the draft accepted. Every problem is an item on its `prefix`ed field
     * (the estimate lists them; the ask refuses with them); choice is null without an audience or
     * with a problem.
     */
    async choose(fields: AudienceFields, accountId: string | null, prefix = 'draft'): Promise<{ choice: AudienceChoice | null; problems: ValidationItem[] }> {
      const problems: ValidationItem[] = [];
      const ref = fields.interestAudienceId;
      if (ref === undefined) {
        for (const field of ['minGrade', 'interestPrice'] as const) {
          if (fields[field] !== undefined) problems.push({ field: `${prefix}.${field}`, code: 'not_allowed', message: `${field} goes with interestAudienceId; without an audience, leave it out.` });
        }
        return { choice: null, problems };
      }
      // The estimate checks only JSON shapes, so the spec's ranges of interestPrice are checked here.
      const price = fields.interestPrice;
      if (price && !(Number.isInteger(price.creditsPerAnswer) && price.creditsPerAnswer >= 1 && price.creditsPerAnswer <= 10_000)) {
        problems.push({ field: `${prefix}.interestPrice.creditsPerAnswer`, code: 'out_of_range', message: 'interestPrice.creditsPerAnswer: a whole number of credits from 1 to 10000.' });
      }
      if (price && !(Number.isInteger(price.bonusCredits) && price.bonusCredits >= 0 && price.bonusCredits <= 10_000)) {
        problems.push({ field: `${prefix}.interestPrice.bonusCredits`, code: 'out_of_range', message: 'interestPrice.bonusCredits: a whole number of credits from 0 to 10000.' });
      }
      if (problems.length) return { choice: null, problems };
      const row = ref.trim() ? await repo.findVisible(ref.trim(), accountId) : undefined;
      if (!row) {
        problems.push({ field: `${prefix}.interestAudienceId`, code: 'unknown_value', message: `No audience "${ref}" that you can ask; see GET /v1/interest-audiences.` });
        return { choice: null, problems };
      }
      if (row.status !== 'open') problems.push({ field: `${prefix}.interestAudienceId`, code: 'not_allowed', message: `The audience "${row.slug}" is closed: it takes no new questions.` });
      // The spec allows minGrade 1 only: an audience question reaches every member (docs/audiences.md).
      const minGrade = fields.minGrade ?? 1;
      const grade = minGrade === 1 ? row.grades[0] : undefined;
      if (!grade) problems.push({ field: `${prefix}.minGrade`, code: 'out_of_range', message: 'minGrade can only be 1 for now: members of every grade answer, and the price is grade 1\'s.' });
      if (hasTargeting(fields.targeting)) {
        problems.push({ field: `${prefix}.targeting`, code: 'not_allowed', message: 'An audience replaces targeting: leave targeting out (or empty) when interestAudienceId is set.' });
      }
      if (grade && fields.interestPrice && fields.interestPrice.creditsPerAnswer < gradePrice(grade.payPence)) {
        problems.push({
          field: `${prefix}.interestPrice`,
          code: 'not_allowed',
          message: `The audience's price at grade ${minGrade} is ${gradePrice(grade.payPence)} credits per answer, above the ${fields.interestPrice.creditsPerAnswer} this draft accepts; save the draft with the new price to ask it.`,
        });
      }
      if (problems.length || !grade) return { choice: null, problems };
      return {
        choice: {
          reach: { id: row.id, minGrade },
          price: { name: row.name, minGrade, payPence: grade.payPence, bonusCredits: fields.interestPrice?.bonusCredits ?? 0 },
        },
        problems,
      };
    },
  };
}
export type AudiencesService = ReturnType<typeof createAudiencesService>;
