import { validationError } from '../lib/errors.ts';
import type { AudienceGradeRow } from '../db/schema.ts';
import { integer, list, required, type AdminCommand } from './cli-values.ts';

/** `--grades` is JSON: an array of {name, proves, payPence}, grade 1 first. */
function grades(raw: string): AudienceGradeRow[] {
  try {
    const value: unknown = JSON.parse(raw);
    if (Array.isArray(value)) return value as AudienceGradeRow[];
  } catch {
    // reported below
  }
  throw validationError([{ field: 'grades', code: 'invalid_format', message: '--grades must be a JSON array of {"name","proves","payPence"}, grade 1 first.' }]);
}

const AUDIENCE = { type: 'string', value: 'SLUG', description: 'the audience, by slug or id (required)' } as const;

/** Running interest audiences (docs/audiences.md "Running audiences"). */
export const audienceCommands: Record<string, AdminCommand> = {
  'audience:create': {
    usage: '--slug S --name N --description D --category C --grades JSON [options]',
    summary: 'Create an interest audience as a draft (nobody sees it until audience:open).',
    options: {
      slug: { type: 'string', value: 'SLUG', description: 'lowercase words joined by hyphens, 3 to 40 characters (required)' },
      name: { type: 'string', value: 'NAME', description: 'up to 60 characters (required)' },
      description: { type: 'string', value: 'TEXT', description: 'who the members are and how they proved it, up to 280 characters (required)' },
      category: { type: 'string', value: 'CATEGORY', description: 'outdoors, sport, health, care, tech, gaming, parenting, food, finance, work, travel, pets, arts or home (required)' },
      grades: { type: 'string', value: 'JSON', description: 'JSON array of {"name","proves","payPence"}, grade 1 first, 1 to 5 grades (required)' },
      tags: { type: 'string', value: 'a,b', description: 'catalogue tags (GET /v1/tags) that membership stamps on a head' },
      countries: { type: 'string', value: 'GB,US', description: 'answering countries where it is open (default: all)' },
      languages: { type: 'string', value: 'en,fr', description: 'languages of its members (default: any)' },
      'open-to-join': { type: 'boolean', description: 'heads can apply to join it' },
      private: { type: 'boolean', description: 'only accounts that sponsor it see and ask it (audience:sponsor)' },
    },
    async run(c, v) {
      const audience = await c.audienceAdmin.create({
        slug: required(v, 'slug'),
        name: required(v, 'name'),
        description: required(v, 'description'),
        category: required(v, 'category'),
        grades: grades(required(v, 'grades')),
        tags: list(v.tags),
        countries: list(v.countries).map((code) => code.toUpperCase()),
        languages: list(v.languages),
        openToJoin: v['open-to-join'] === true,
        private: v.private === true,
      });
      return { audience };
    },
  },
  'audience:open': {
    usage: '--audience SLUG',
    summary: 'Open an audience: it is listed and can be asked.',
    options: { audience: AUDIENCE },
    async run(c, v) {
      return { audience: await c.audienceAdmin.setStatus(required(v, 'audience'), 'open') };
    },
  },
  'audience:close': {
    usage: '--audience SLUG',
    summary: 'Close an audience: it takes no new questions (questions already asked go on).',
    options: { audience: AUDIENCE },
    async run(c, v) {
      return { audience: await c.audienceAdmin.setStatus(required(v, 'audience'), 'closed') };
    },
  },
  'audience:sponsor': {
    usage: '--audience SLUG --account ID [--remove]',
    summary: "Let a team's account see and ask a private audience (--remove: no longer).",
    options: {
      audience: AUDIENCE,
      account: { type: 'string', value: 'ID', description: 'the sponsoring account (acc_…, required)' },
      remove: { type: 'boolean', description: 'end the sponsorship' },
    },
    async run(c, v) {
      return c.audienceAdmin.sponsor(required(v, 'audience'), required(v, 'account'), v.remove === true);
    },
  },
  'audience:grade': {
    usage: '--audience SLUG --head HEAD_ID --grade N|--remove',
    summary: "Set a head's grade in an audience (joining it; its tags are stamped on the head), or --remove the membership.",
    options: {
      audience: AUDIENCE,
      head: { type: 'string', value: 'ID', description: 'the head (hd_…, required)' },
      grade: { type: 'string', value: 'N', description: 'the grade, 1 to the audience\'s highest' },
      remove: { type: 'boolean', description: 'remove the head from the audience' },
    },
    async run(c, v) {
      const grade = integer(v.grade, 'grade');
      if ((grade === null) === (v.remove !== true)) throw validationError([{ field: 'grade', code: 'required', message: 'Give exactly one of --grade N and --remove.' }]);
      return c.audienceAdmin.grade(required(v, 'audience'), required(v, 'head'), grade);
    },
  },
  'audience:list': {
    usage: '',
    summary: 'List every audience: drafts and private ones too, with their sponsors.',
    options: {},
    async run(c) {
      return { audiences: await c.audienceAdmin.list() };
    },
  },
};
