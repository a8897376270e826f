import type { Static } from '@sinclair/typebox';
import type { TemplateDraftSchema } from './catalogue-entries.schemas.ts';

/**
 * Starting points people actually ask, one per common job. Each is a complete, valid draft (a test
 * checks it against the validator) and its price is computed by the pricing module when served.
 */
export interface TemplateData {
  id: string;
  name: string;
  description: string;
  draft: Static<typeof TemplateDraftSchema>;
}

const base = { language: 'en', options: [] as Array<{ label: string }>, neither: false, n: 50, tier: 1 as const, rush: false, publicResults: false, reason: 'off' as const };

export const TEMPLATES: TemplateData[] = [
  {
    id: 'tpl_name_pick',
    name: 'Pick a name',
    description: 'Which of your candidate names do people prefer? Add a reason to learn why.',
    draft: { ...base, type: 'single_choice', text: 'Which name would you pick for a budgeting app?', options: [{ label: 'Penny' }, { label: 'Pocket' }, { label: 'Ledgerly' }], neither: true, reason: 'optional' },
  },
  {
    id: 'tpl_feature_wishlist',
    name: 'Which features matter',
    description: 'Let people tick every feature they would use, to see what to build first.',
    draft: { ...base, type: 'multi_choice', text: 'Which of these would you use in a note-taking app? Tick all that apply.', options: [{ label: 'Offline mode' }, { label: 'Voice notes' }, { label: 'Shared notebooks' }, { label: 'Handwriting' }, { label: 'Web clipper' }] },
  },
  {
    id: 'tpl_tagline_duel',
    name: 'Tagline face-off',
    description: 'Pairs of taglines shown head to head; the result ranks them by strength.',
    draft: { ...base, type: 'pairwise', text: 'Which line makes you more likely to try the product?', options: [{ label: 'Groceries in 20 minutes' }, { label: 'Your corner shop, online' }, { label: 'Fresh food, no queue' }, { label: 'Dinner sorted tonight' }] },
  },
  {
    id: 'tpl_priority_rank',
    name: 'Rank what matters',
    description: 'People put options in order; the result gives the average rank of each.',
    draft: { ...base, type: 'ranking', text: 'Put these in order of what matters most when choosing a phone plan.', options: [{ label: 'Price' }, { label: 'Data allowance' }, { label: 'Network coverage' }, { label: 'Contract length' }] },
  },
  {
    id: 'tpl_clarity_scale',
    name: 'How clear is it?',
    description: 'A 1 to 5 rating with a mean, for copy, pricing pages or instructions.',
    draft: { ...base, type: 'scale_1_5', text: 'How clear is this sentence: "Cancel any time, no fees, from your account page"?', context: '1 = very unclear, 5 = perfectly clear', reason: 'optional' },
  },
  {
    id: 'tpl_would_use',
    name: 'Would you use it?',
    description: 'A quick yes / mostly / no on an idea, with reasons.',
    draft: { ...base, type: 'yes_mostly_no', text: 'Would you pay £3 a month for an app that reminds you to water your plants?', reason: 'required' },
  },
  {
    id: 'tpl_first_impression',
    name: 'First impression',
    description: 'An open question; the summary groups the answers into themes.',
    draft: { ...base, type: 'free_text', text: 'What is the first thing you would want to know before switching your bank?', n: 30 },
  },
  {
    id: 'tpl_slogan_reaction',
    name: 'Gut reaction',
    description: 'A slogan is shown for five seconds, then people say how it made them feel.',
    draft: {
      ...base,
      type: 'reaction',
      text: 'How did that slogan make you feel?',
      options: [{ label: 'Curious' }, { label: 'Indifferent' }, { label: 'Put off' }],
      stimulus: { text: 'Banking that talks like a person.', exposureMs: 5000 },
    },
  },
  {
    id: 'tpl_uk_parents',
    name: 'Ask UK parents',
    description: 'A targeted question for parents of school-age children in the UK.',
    draft: {
      ...base,
      type: 'single_choice',
      text: 'How do your children mostly get to school?',
      options: [{ label: 'Walk or cycle' }, { label: 'Car' }, { label: 'Bus or train' }],
      targeting: { countries: ['GB'], tags: ['parent_school_age'] },
      n: 100,
    },
  },
];
