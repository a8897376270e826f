/**
 * The development seed of interest audiences (docs/audiences.md): panels of heads who proved a
 * trait, graded by how well they proved it and paid by grade. Simulated heads are picked as
 * members by each audience's `members`: heads carrying one of `anyTag` (any head when empty), in
 * the audience's countries, of whom `share` join, spread over the grades by `gradeWeights`.
 * Proofs are checked and then discarded: only the outcome (the grade and when it was proved) is
 * kept, never the document itself.
 */

/** Categories an audience belongs to (GET /v1/interest-audiences?category=…). */
export const AUDIENCE_CATEGORIES = ['outdoors', 'sport', 'health', 'care', 'tech', 'gaming', 'parenting', 'food', 'finance', 'work', 'travel', 'pets', 'arts', 'home'] as const;
export type AudienceCategory = (typeof AUDIENCE_CATEGORIES)[number];

export interface SeedGrade {
  /** Short name of the grade, up to 40 characters, e.g. "Logged climber". */
  name: string;
  /** What a head proved to hold this grade, one sentence up to 160 characters, e.g. "Logged at least 10 climbs in a climbing app in the last 12 months." */
  proves: string;
  /** What a head at this grade is paid per answer, in pence (whole number). Increasing with the grade. */
  payPence: number;
}

export interface SeedAudience {
  slug: string; // lowercase a-z, 0-9 and single hyphens, 3 to 40 characters, e.g. "rock-climbers"
  name: string; // up to 60 characters, e.g. "Rock climbers"
  description: string; // one or two sentences, up to 280 characters: who they are and how they proved it
  category: AudienceCategory;
  /** Tag ids from the catalogue below that membership stamps on a head (1 to 3). */
  tags: string[];
  /** 2 to 4 grades, grade 1 first (the weakest proof), each stricter and better paid than the one before. */
  grades: SeedGrade[];
  /** ISO 3166 alpha-2 codes where the audience is open (answering countries only, see below); [] means every answering country. */
  countries: string[];
  /** Languages of the audience, from: en, es, pt, hi, fr, de, id, tl. */
  languages: string[];
  /** Whether new heads can apply to join. */
  openToJoin: boolean;
  /** How simulated heads are picked as members (development seed only). */
  members: {
    /** A simulated head qualifies if it carries at least one of these tag ids ([] = any head). */
    anyTag: string[];
    /** Fraction (0–1) of the qualifying heads (in the audience's countries) who are members. */
    share: number;
    /** Relative weights of grades 1..k for members (same length as grades), e.g. [60, 30, 10]. */
    gradeWeights: number[];
  };
}

const ALL_LANGUAGES = ['en', 'es', 'pt', 'hi', 'fr', 'de', 'id', 'tl'];
/** English-speaking answering countries with public teacher and nurse registers. */
const ENGLISH_REGISTERS = ['GB', 'IE', 'US', 'CA', 'AU'];

export const SEED_AUDIENCES: readonly SeedAudience[] = [
  {
    slug: 'rock-climbers',
    name: 'Rock climbers',
    description: 'People who climb indoors or outdoors and connected a climbing logbook app to show their recent climbs. Higher grades have logged harder routes or hold an instructor award.',
    category: 'outdoors',
    tags: ['int_outdoors', 'int_sport'],
    grades: [
      { name: 'Logged climber', proves: 'Logged at least 10 climbs in a climbing app in the last 12 months.', payPence: 25 },
      { name: 'Regular climber', proves: 'Logged at least 50 climbs in the last 12 months, including routes graded 6a+ (French) or 5.10b (YDS) or harder.', payPence: 45 },
      { name: 'Climbing instructor', proves: 'Holds a current climbing instructor award, such as a Climbing Wall Instructor or Rock Climbing Instructor certificate.', payPence: 80 },
    ],
    countries: [],
    languages: ['en', 'es', 'fr', 'de'],
    openToJoin: true,
    members: { anyTag: ['int_outdoors'], share: 0.4, gradeWeights: [60, 30, 10] },
  },
  {
    slug: 'registered-nurses',
    name: 'Registered nurses',
    description: 'Nurses whose registration number was checked against the public register of their nursing regulator, such as the NMC or a state board of nursing.',
    category: 'health',
    tags: ['occ_healthcare', 'edu_degree'],
    grades: [
      { name: 'Registered nurse', proves: 'Has a current entry on a national or state nursing register, checked by registration number and name.', payPence: 60 },
      { name: 'Experienced nurse', proves: 'Has been on the nursing register for at least 5 years without a break, as shown by the register entry.', payPence: 95 },
      { name: 'Nurse prescriber', proves: 'The register entry carries a prescribing or advanced practice annotation, such as V300 or nurse practitioner.', payPence: 140 },
    ],
    countries: ENGLISH_REGISTERS,
    languages: ['en'],
    openToJoin: true,
    members: { anyTag: ['occ_healthcare'], share: 0.5, gradeWeights: [55, 35, 10] },
  },
  {
    slug: 'software-engineers',
    name: 'Software engineers',
    description: 'People who build software for a living and confirmed a work email at a software employer or linked a code hosting account with recent public commits.',
    category: 'tech',
    tags: ['occ_software', 'tech_early_adopter'],
    grades: [
      { name: 'Verified engineer', proves: 'Confirmed a work email address at a company that builds software, by a one-time link sent to that address.', payPence: 40 },
      { name: 'Active committer', proves: 'Linked a GitHub or GitLab account with at least 50 public commits in the last 12 months.', payPence: 70 },
      { name: 'Open-source maintainer', proves: 'Maintains a public repository with at least 100 stars or 10 outside contributors, shown by a linked account.', payPence: 110 },
    ],
    countries: [],
    languages: ALL_LANGUAGES,
    openToJoin: true,
    members: { anyTag: ['occ_software'], share: 0.8, gradeWeights: [50, 35, 15] },
  },
  {
    slug: 'parents-of-under-fives',
    name: 'Parents of under-fives',
    description: 'Parents and guardians of a child under 5 who showed a child benefit or family allowance letter, or a recent nursery or childminder invoice. Only the child’s birth year is kept.',
    category: 'parenting',
    tags: ['new_parent', 'family_with_kids'],
    grades: [
      { name: 'Parent of an under-five', proves: 'Showed a child benefit or family allowance letter naming them as the claimant for a child under 5.', payPence: 25 },
      { name: 'Nursery parent', proves: 'Showed a nursery or childminder invoice from the last 3 months for a child under 5, addressed to them.', payPence: 35 },
    ],
    countries: [],
    languages: ALL_LANGUAGES,
    openToJoin: true,
    members: { anyTag: ['new_parent'], share: 0.7, gradeWeights: [65, 35] },
  },
  {
    slug: 'dog-owners',
    name: 'Dog owners',
    description: 'People who own a dog and showed a vet record or vaccination card naming them as the owner. Higher grades registered the microchip in their name or breed or train dogs.',
    category: 'pets',
    tags: ['pet_dog'],
    grades: [
      { name: 'Dog owner', proves: 'Showed a vet record or vaccination card from the last 12 months naming them as the owner of a dog.', payPence: 20 },
      { name: 'Registered dog owner', proves: 'Showed a microchip registration in their name and a vet visit for the same dog in the last 6 months.', payPence: 30 },
      { name: 'Breeder or trainer', proves: 'Holds a licence to breed dogs or a recognised dog training qualification, checked with the issuing body.', payPence: 60 },
    ],
    countries: [],
    languages: ALL_LANGUAGES,
    openToJoin: true,
    members: { anyTag: ['pet_dog'], share: 0.6, gradeWeights: [60, 32, 8] },
  },
  {
    slug: 'home-cooks',
    name: 'Home cooks',
    description: 'People who cook at home most days and shared their own recipes, with photos, on a public recipe site or account they linked. The top grade holds a food hygiene or catering qualification.',
    category: 'food',
    tags: ['int_cooking', 'shop_grocery_decider'],
    grades: [
      { name: 'Recipe sharer', proves: 'Linked a recipe site or social account with at least 5 of their own recipes, with photos, posted in the last 12 months.', payPence: 20 },
      { name: 'Rated recipe writer', proves: 'Has posted at least 30 of their own recipes, 10 or more of them rated or reviewed by other people.', payPence: 35 },
      { name: 'Trained cook', proves: 'Holds a food hygiene certificate (level 2 or equivalent) or a catering qualification, checked with the issuer.', payPence: 55 },
    ],
    countries: [],
    languages: ALL_LANGUAGES,
    openToJoin: false,
    members: { anyTag: ['int_cooking'], share: 0.5, gradeWeights: [60, 30, 10] },
  },
  {
    slug: 'dedicated-gamers',
    name: 'Dedicated gamers',
    description: 'People who play video games often and linked a Steam, PlayStation or Xbox account showing at least 500 hours of play.',
    category: 'gaming',
    tags: ['int_gaming', 'media_streaming'],
    grades: [
      { name: 'Dedicated player', proves: 'Linked a gaming account showing at least 500 hours played across all games.', payPence: 25 },
      { name: 'Heavy player', proves: 'Linked a gaming account showing at least 2,000 hours played, with 200 or more in the last 6 months.', payPence: 35 },
      { name: 'Ranked competitor', proves: 'Holds a rank in the top 10% of a competitive game’s ranked ladder this season, shown by a linked account.', payPence: 50 },
    ],
    countries: [],
    languages: ALL_LANGUAGES,
    openToJoin: false,
    members: { anyTag: ['int_gaming'], share: 0.9, gradeWeights: [55, 35, 10] },
  },
  {
    slug: 'small-business-owners',
    name: 'Small business owners',
    description: 'People who own and run a small business and showed a company registration in their name on a public business register. Higher grades have filed accounts or employ staff.',
    category: 'work',
    tags: ['occ_business_owner'],
    grades: [
      { name: 'Registered owner', proves: 'Is listed as a director, partner or owner of an active business on a public business register.', payPence: 50 },
      { name: 'Established owner', proves: 'The business has filed accounts or tax returns for at least 2 years, shown on the register or a filing receipt.', payPence: 80 },
      { name: 'Employer', proves: 'Showed a payroll summary from the last 3 months for at least 5 employees, with no names or pay kept.', payPence: 120 },
    ],
    countries: [],
    languages: ALL_LANGUAGES,
    openToJoin: true,
    members: { anyTag: ['occ_business_owner'], share: 0.7, gradeWeights: [55, 30, 15] },
  },
  {
    slug: 'school-teachers',
    name: 'School teachers',
    description: 'Teachers at primary and secondary schools who confirmed a school email address. Higher grades hold a teaching registration or lead a department or school.',
    category: 'work',
    tags: ['occ_education', 'edu_degree'],
    grades: [
      { name: 'School staff', proves: 'Confirmed an email address at a school domain by a one-time link sent to that address.', payPence: 35 },
      { name: 'Registered teacher', proves: 'Holds a teaching registration or licence, such as a TRN or Teaching Council number, checked with the register.', payPence: 55 },
      { name: 'School leader', proves: 'Is named as a head of department, head teacher or deputy on the school’s website or in a letter on school paper.', payPence: 90 },
    ],
    countries: ENGLISH_REGISTERS,
    languages: ['en'],
    openToJoin: false,
    members: { anyTag: ['occ_education'], share: 0.6, gradeWeights: [45, 40, 15] },
  },
  {
    slug: 'frequent-flyers',
    name: 'Frequent flyers',
    description: 'People who fly often for work or leisure and linked an airline loyalty account showing their recent flights. Higher grades hold mid-tier or top-tier airline status.',
    category: 'travel',
    tags: ['int_travel'],
    grades: [
      { name: 'Regular flyer', proves: 'Linked an airline loyalty account showing at least 4 flights taken in the last 12 months.', payPence: 30 },
      { name: 'Status holder', proves: 'Holds current silver or mid-tier status with an airline or alliance, such as oneworld Ruby or Star Alliance Silver.', payPence: 50 },
      { name: 'Top-tier status holder', proves: 'Holds current gold or top-tier status with an airline or alliance, such as oneworld Sapphire or SkyTeam Elite Plus.', payPence: 90 },
    ],
    countries: [],
    languages: ALL_LANGUAGES,
    openToJoin: true,
    members: { anyTag: ['int_travel'], share: 0.5, gradeWeights: [60, 28, 12] },
  },
  {
    slug: 'living-with-diabetes',
    name: 'People living with diabetes',
    description: 'People who manage type 1 or type 2 diabetes and showed a current prescription for a diabetes medicine or test supplies. Only the fact that the prescription was valid is kept.',
    category: 'health',
    tags: ['health_chronic_condition'],
    grades: [
      { name: 'Prescription holder', proves: 'Showed a prescription from the last 6 months for a diabetes medicine, insulin or glucose test strips, issued to them.', payPence: 35 },
      { name: 'Glucose monitor user', proves: 'Showed a continuous glucose monitor or insulin pump paired in its app in the last 30 days, without sharing any readings.', payPence: 50 },
    ],
    countries: [],
    languages: ALL_LANGUAGES,
    openToJoin: true,
    members: { anyTag: ['health_chronic_condition'], share: 0.35, gradeWeights: [70, 30] },
  },
  {
    slug: 'provider-switchers',
    name: 'Bank, energy and broadband switchers',
    description: 'People who moved their current account, energy supply or broadband to a new provider in the last 12 months and showed the confirmation from the new provider.',
    category: 'finance',
    tags: ['shop_bargain_hunter'],
    grades: [
      { name: 'Recent switcher', proves: 'Showed a switch confirmation from a new bank, energy or broadband provider dated in the last 12 months.', payPence: 20 },
      { name: 'Repeat switcher', proves: 'Showed switch confirmations for at least two different services, such as a bank and an energy supply, in the last 12 months.', payPence: 30 },
    ],
    countries: [],
    languages: ALL_LANGUAGES,
    openToJoin: false,
    members: { anyTag: [], share: 0.15, gradeWeights: [75, 25] },
  },
];
