import type { TagGroupId } from './catalogue-entries.schemas.ts';

/**
 * The tags a question can target (spec "Tags"): 12 groups, each with why a requester would use it
 * and `max`, how many of its tags one question may target: 1 for every group ("one trait per
 * group", spec). What a head carries is another matter (`perHead`): a person can have two
 * interests, and a question targeting one of them reaches both kinds of head.
 */
export interface TagGroup {
  id: TagGroupId;
  label: string;
  why: string;
  /** Tags of this group one question may target (the catalogue's `max`). */
  max: 1;
  /** Tags of this group one head may carry (default 1; not in the catalogue). */
  perHead?: number;
  tags: Array<{ id: string; label: string }>;
}

export const TAG_GROUP_DATA: TagGroup[] = [
  {
    id: 'life_stage', label: 'Life stage', max: 1,
    why: 'Needs and budgets change with life stage: ask students, new parents or retirees about what they actually face.',
    tags: [
      { id: 'student', label: 'Student' },
      { id: 'new_parent', label: 'New parent (child under 2)' },
      { id: 'parent_school_age', label: 'Parent of school-age children' },
      { id: 'empty_nester', label: 'Empty nester' },
      { id: 'retired', label: 'Retired' },
    ],
  },
  {
    id: 'household', label: 'Household', max: 1,
    why: 'Who shares a home decides who buys and who decides: target people living alone, couples or larger households.',
    tags: [
      { id: 'lives_alone', label: 'Lives alone' },
      { id: 'couple_no_kids', label: 'Couple, no children' },
      { id: 'family_with_kids', label: 'Family with children' },
      { id: 'shared_house', label: 'Shares with housemates' },
      { id: 'multigenerational', label: 'Multigenerational household' },
    ],
  },
  {
    id: 'income', label: 'Household income', max: 1,
    why: 'Price sensitivity depends on income: test a price or a premium offer with the people it is meant for.',
    tags: [
      { id: 'income_low', label: 'Lower income' },
      { id: 'income_middle', label: 'Middle income' },
      { id: 'income_high', label: 'Higher income' },
    ],
  },
  {
    id: 'education', label: 'Education', max: 1,
    why: 'Wording and assumptions land differently with different schooling: check that copy is clear to everyone you mean.',
    tags: [
      { id: 'edu_secondary', label: 'Secondary school' },
      { id: 'edu_vocational', label: 'Vocational or trade qualification' },
      { id: 'edu_degree', label: 'University degree' },
      { id: 'edu_postgrad', label: 'Postgraduate degree' },
    ],
  },
  {
    id: 'occupation', label: 'Occupation', max: 1,
    why: 'Ask people who do the job: developers about tools, nurses about shifts, shop staff about tills.',
    tags: [
      { id: 'occ_software', label: 'Software and IT' },
      { id: 'occ_healthcare', label: 'Healthcare' },
      { id: 'occ_education', label: 'Teaching and education' },
      { id: 'occ_retail', label: 'Retail and hospitality' },
      { id: 'occ_trades', label: 'Skilled trades' },
      { id: 'occ_office', label: 'Office and administration' },
      { id: 'occ_creative', label: 'Design and creative' },
      { id: 'occ_business_owner', label: 'Runs a small business' },
    ],
  },
  {
    id: 'interests', label: 'Interests', max: 1, perHead: 2,
    why: 'Reach the people who care about the subject: runners for running shoes, gamers for a game trailer.',
    tags: [
      { id: 'int_sport', label: 'Sport and fitness' },
      { id: 'int_outdoors', label: 'Outdoors and hiking' },
      { id: 'int_gaming', label: 'Video games' },
      { id: 'int_cooking', label: 'Cooking' },
      { id: 'int_travel', label: 'Travel' },
      { id: 'int_music', label: 'Music' },
      { id: 'int_fashion', label: 'Fashion' },
      { id: 'int_diy', label: 'DIY and home improvement' },
    ],
  },
  {
    id: 'habits', label: 'Habits', max: 1,
    why: 'What people do every day predicts what they will use: commuters, early risers, night owls.',
    tags: [
      { id: 'hab_commuter', label: 'Commutes by public transport' },
      { id: 'hab_driver', label: 'Drives most days' },
      { id: 'hab_cyclist', label: 'Cycles regularly' },
      { id: 'hab_remote_worker', label: 'Works from home' },
      { id: 'hab_smoker', label: 'Smokes or vapes' },
    ],
  },
  {
    id: 'shopping', label: 'Shopping', max: 1,
    why: 'Test packaging, prices and checkout flows with the people who shop that way.',
    tags: [
      { id: 'shop_online_weekly', label: 'Shops online every week' },
      { id: 'shop_bargain_hunter', label: 'Looks for deals first' },
      { id: 'shop_premium', label: 'Prefers premium brands' },
      { id: 'shop_grocery_decider', label: 'Does the grocery shopping' },
    ],
  },
  {
    id: 'health', label: 'Health and diet', max: 1,
    why: 'Diet and health shape choices about food and care; ask only what the question needs.',
    tags: [
      { id: 'diet_vegetarian', label: 'Vegetarian or vegan' },
      { id: 'diet_gluten_free', label: 'Eats gluten-free' },
      { id: 'health_chronic_condition', label: 'Lives with a long-term condition' },
      { id: 'health_carer', label: 'Cares for someone' },
    ],
  },
  {
    id: 'media', label: 'Media', max: 1,
    why: 'Where people spend attention tells you where an ad or a message will be seen.',
    tags: [
      { id: 'media_podcasts', label: 'Listens to podcasts weekly' },
      { id: 'media_streaming', label: 'Streams TV and film' },
      { id: 'media_social_heavy', label: 'Uses social media several hours a day' },
      { id: 'media_news_daily', label: 'Reads the news daily' },
    ],
  },
  {
    id: 'pets', label: 'Pets', max: 1,
    why: 'Pet owners buy for their animals: ask dog and cat owners about food, toys and care.',
    tags: [
      { id: 'pet_dog', label: 'Has a dog' },
      { id: 'pet_cat', label: 'Has a cat' },
      { id: 'pet_other', label: 'Has another pet' },
      { id: 'pet_none', label: 'Has no pets' },
    ],
  },
  {
    id: 'tech', label: 'Technology', max: 1,
    why: 'Device and comfort with technology decide how people meet a product: ask iPhone or Android users, early adopters.',
    tags: [
      { id: 'tech_iphone', label: 'Uses an iPhone' },
      { id: 'tech_android', label: 'Uses an Android phone' },
      { id: 'tech_early_adopter', label: 'Early adopter' },
      { id: 'tech_smart_home', label: 'Has smart-home devices' },
    ],
  },
];

const tagIndex = new Map(TAG_GROUP_DATA.flatMap((group) => group.tags.map((tag) => [tag.id, { ...tag, group }] as const)));

export function findTag(id: string): { id: string; label: string; group: TagGroup } | undefined {
  return tagIndex.get(id);
}
