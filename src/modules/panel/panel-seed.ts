import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { seededRng, weightedPick, type Rng } from '../../lib/random.ts';
import { ANSWERING_COUNTRIES } from '../draft/countries.data.ts';
import { TAG_GROUP_DATA } from '../draft/tags.data.ts';
import { AGE_BANDS, GENDERS } from '../draft/question-types.ts';
import { createHeadsRepository, type SeededHead } from './heads.repository.ts';

/**
 * The synthetic panel of development (ARCHITECTURE §4 "Panel"): heads with a realistic spread of
 * country, tier, age band, gender and tags, marked `simulated` so results never pass them off as
 * real people. Seeded once: a marker row written in the same transaction makes a second start, or
 * a second process starting at the same time, a no-op.
 */
const MARKER = 'simulated_panel_seeded';
const BATCH = 500;

const AGE_WEIGHTS: Record<string, number> = { '18-24': 18, '25-34': 27, '35-44': 22, '45-54': 16, '55-64': 11, '65+': 6 };
const GENDER_WEIGHTS: Record<string, number> = { woman: 49, man: 48.5, non_binary: 2.5 };
/** Share of heads who carry a tag of each group (people fill in some of their profile, not all). */
const GROUP_FILL = 0.55;

export function generateHeads(size: number, now: Date, rng: Rng = seededRng(20261122)): SeededHead[] {
  const heads: SeededHead[] = [];
  for (let i = 0; i < size; i++) {
    const country = weightedPick(rng, ANSWERING_COUNTRIES, (c) => c.weight);
    const roll = rng();
    // Tier 2 (ID-checked) and tier 3 (vetted professionals) exist only where tier 2 is offered.
    const tier = !country.entry.tier2Available ? 1 : roll < 0.06 ? 3 : roll < 0.3 ? 2 : 1;
    const tags: string[] = [];
    for (const group of TAG_GROUP_DATA) {
      if (rng() > GROUP_FILL) continue;
      const count = (group.perHead ?? 1) > 1 && rng() < 0.4 ? 2 : 1;
      const pool = [...group.tags];
      for (let k = 0; k < count && pool.length; k++) tags.push(pool.splice(Math.floor(rng() * pool.length), 1)[0].id);
    }
    // Online pattern: a fifth were seen in the last hour, most within the week.
    const minutesAgo = rng() < 0.2 ? rng() * 60 : 60 + rng() * 7 * 24 * 60;
    heads.push({
      id: newId('head'),
      country: country.code,
      tier,
      age_band: weightedPick(rng, AGE_BANDS, (b) => AGE_WEIGHTS[b]),
      gender: weightedPick(rng, GENDERS, (g) => GENDER_WEIGHTS[g]),
      tags,
      verified_age: tier >= 2 || rng() < 0.3,
      language: country.languages[0],
      simulated: true,
      last_seen_at: new Date(now.getTime() - minutesAgo * 60_000),
      created_at: new Date(now.getTime() - (30 + rng() * 300) * 86_400_000),
    });
  }
  return heads;
}

/**
 * Seeds the panel unless it was seeded before; returns how many heads were added. Takes the
 * database rather than a repository: it runs once at start-up (main, tests, the bench), before or
 * beside any container, and opens its own transaction on it.
 */
export async function seedSimulatedPanel(db: Db, options: { size: number; clock: Clock; seed?: number }): Promise<number> {
  if (options.size <= 0) return 0;
  const repo = createHeadsRepository(db);
  return db.transaction().execute(async (tx) => {
    if (!(await repo.claimMarker(MARKER, tx))) return 0;
    const heads = generateHeads(options.size, options.clock.now(), seededRng(options.seed ?? 20261122));
    for (let i = 0; i < heads.length; i += BATCH) await repo.insertHeads(heads.slice(i, i + BATCH), tx);
    return heads.length;
  });
}
