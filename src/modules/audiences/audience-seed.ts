import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { seededRng, weightedPick } from '../../lib/random.ts';
import { createHeadsRepository } from '../panel/heads.repository.ts';
import { SEED_AUDIENCES } from './audiences.data.ts';
import { createAudiencesRepository } from './audiences.repository.ts';

const MARKER = 'simulated_audiences_seeded';
const BATCH = 500;

/**
 * Seeds the development audiences (audiences.data.ts) from the simulated panel, once: open,
 * marked `simulated`, each with members drawn from simulated heads by its `members` rule and
 * graded by its weights; membership stamps the audience's tags on each member. A marker row in
 * the same transaction makes a second start (or a second process) a no-op, as the panel seed.
 * Run after the panel seed; returns how many audiences were added (0 without simulated heads).
 */
export async function seedSimulatedAudiences(db: Db, options: { clock: Clock; seed?: number }): Promise<number> {
  const heads = createHeadsRepository(db);
  const repo = createAudiencesRepository(db);
  return db.transaction().execute(async (tx) => {
    // The marker first: on every start after the first it is there, and the panel's 2,000 heads
    // are not read (~60 ms of each start on the embedded database; issue 15).
    if (!(await heads.claimMarker(MARKER, tx))) return 0;
    const panel = await repo.simulatedHeads(tx);
    if (panel.length === 0) {
      // No panel yet: nothing to seed, and a later start (with a panel) must still seed.
      await heads.releaseMarker(MARKER, tx);
      return 0;
    }
    const rng = seededRng(options.seed ?? 20261125);
    const now = options.clock.now();
    for (const seed of SEED_AUDIENCES) {
      const id = newId('audience');
      await repo.insert(
        {
          id,
          slug: seed.slug,
          name: seed.name,
          description: seed.description,
          category: seed.category,
          status: 'open',
          tags: seed.tags,
          grades: JSON.stringify(seed.grades),
          open_to_join: seed.openToJoin,
          private: false,
          countries: seed.countries,
          languages: seed.languages,
          simulated: true,
          created_at: now,
          updated_at: now,
        },
        tx,
      );
      const grades = seed.members.gradeWeights.map((weight, i) => ({ grade: i + 1, weight }));
      const members = panel
        .filter((h) => (seed.members.anyTag.length === 0 || h.tags.some((t) => seed.members.anyTag.includes(t))) && (seed.countries.length === 0 || seed.countries.includes(h.country)))
        .filter(() => rng() < seed.members.share)
        .map((h) => ({ audience_id: id, head_id: h.id, grade: weightedPick(rng, grades, (g) => g.weight).grade, graded_at: now }));
      for (let i = 0; i < members.length; i += BATCH) {
        const batch = members.slice(i, i + BATCH);
        await repo.insertMembers(batch, tx);
        await repo.stampTags(batch.map((m) => m.head_id), seed.tags, tx);
      }
    }
    return SEED_AUDIENCES.length;
  });
}
