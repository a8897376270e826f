import { Type, type Static } from '@sinclair/typebox';
import { Closed, RefOf, StringEnum } from '../../lib/typebox.ts';
import { SIZE_BANDS } from '../draft/size-bands.ts';
import { AUDIENCE_CATEGORIES } from './audiences.data.ts';

/**
 * The audience record (spec "Other public catalogues": field names not shown, only their types;
 * these are ours, documented in docs/audiences.md).
 */
export const AUDIENCE_STATUSES = ['draft', 'open', 'closed'] as const;
export type AudienceStatus = (typeof AUDIENCE_STATUSES)[number];
/** Grades run from 1 (the weakest proof) to at most 5: the record's gradeMix has five integers. */
export const MAX_GRADES = 5;
/** Slugs: lowercase words joined by single hyphens, 3 to 40 characters (fits interestAudienceId's 40). */
export const SLUG_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';

export const AudienceGradeSchema = Closed(
  {
    grade: Type.Integer({ minimum: 1, maximum: MAX_GRADES, description: '1 is the weakest proof; each grade proves more than the one below.' }),
    name: Type.String({ description: 'Short name of the grade, e.g. "Logged climber".' }),
    proves: Type.String({ description: 'What a head showed to hold this grade.' }),
    payPence: Type.Integer({ minimum: 1, description: 'What a head is paid per answer when the audience is asked at this grade, in pence.' }),
    creditsPerAnswer: Type.Integer({
      minimum: 1,
      description: 'The price per answer of asking the audience at this grade (its pay plus the Headcount fee). Rush and interestPrice.bonusCredits add to it.',
    }),
  },
  { $id: 'AudienceGrade' },
);
export type AudienceGrade = Static<typeof AudienceGradeSchema>;

export const GradeMixSchema = Closed(
  {
    grade1: Type.Integer({ minimum: 0, maximum: 100 }),
    grade2: Type.Integer({ minimum: 0, maximum: 100 }),
    grade3: Type.Integer({ minimum: 0, maximum: 100 }),
    grade4: Type.Integer({ minimum: 0, maximum: 100 }),
    grade5: Type.Integer({ minimum: 0, maximum: 100 }),
  },
  { description: 'Share of the members at each grade, in whole percent (shares, never counts; 0 for a grade the audience does not have).' },
);
export type GradeMix = Static<typeof GradeMixSchema>;

export const AudienceSchema = Closed(
  {
    id: Type.String({ description: 'Put it (or the slug) in a saved draft\'s interestAudienceId to ask the audience.' }),
    slug: Type.String({ pattern: SLUG_PATTERN, minLength: 3, maxLength: 40 }),
    name: Type.String(),
    description: Type.String(),
    category: StringEnum(AUDIENCE_CATEGORIES),
    status: StringEnum(AUDIENCE_STATUSES, { description: 'open: can be asked; closed: listed by slug, refused in an ask. Drafts are never shown.' }),
    sizeBand: StringEnum(SIZE_BANDS, { description: 'How many members it has, as a band (never a count).' }),
    tags: Type.Array(Type.String(), { description: 'Tags (GET /v1/tags) that membership stamps on a head.' }),
    grades: Type.Array(RefOf(AudienceGradeSchema), { minItems: 1, maxItems: MAX_GRADES, description: 'Grade 1 first.' }),
    gradeMix: GradeMixSchema,
    openToJoin: Type.Boolean({ description: 'Heads can apply to join it.' }),
    sponsored: Type.Boolean({ description: 'A private audience your team sponsors: only its sponsors see and ask it.' }),
    simulated: Type.Boolean({ description: 'Its members are simulated heads (the development panel); results say so.' }),
    countries: Type.Array(Type.String({ pattern: '^[A-Z]{2}$' }), { description: 'Countries where it is open; empty: every answering country.' }),
    languages: Type.Array(Type.String(), { description: 'Languages of its members; empty: any.' }),
  },
  { $id: 'Audience' },
);
export type Audience = Static<typeof AudienceSchema>;

export const AudienceListQuerySchema = Closed({
  q: Type.Optional(Type.String({ maxLength: 60, description: 'Words to find in the name, description, slug or tags.' })),
  country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'Only audiences open in this country.' })),
  lang: Type.Optional(Type.String({ maxLength: 5, description: 'Only audiences in this language (a tag such as "pt" or "pt-BR").' })),
  category: Type.Optional(StringEnum(AUDIENCE_CATEGORIES)),
  open: Type.Optional(StringEnum(['1'], { description: '1: only audiences open to join from the caller\'s country (`country`, else the CF-IPCountry header of a trusted proxy).' })),
  mine: Type.Optional(StringEnum(['asking'], { description: 'asking: with a credential, private audiences your team sponsors are listed too.' })),
});
export type AudienceListQuery = Static<typeof AudienceListQuerySchema>;

export const AudienceSlugParams = Closed({
  slug: Type.String({ minLength: 3, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$', description: 'The audience\'s slug (or its id).' }),
});
