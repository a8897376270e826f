import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { answerRow } from '../results/answer-row.fixture.ts';
import type { ResultEntry } from '../results/result-entry.ts';
import { createHeatmapService, type HeatmapServiceDeps } from './heatmap.service.ts';
import { ASPECT_LADDER, type TapPoint } from './heatmap.ts';

/** The heatmap service with fakes: which taps it draws, errors, the picture cache, the render limit. */
function entryOf(type: 'click_test' | 'single_choice', rows = [answerRow({ country: 'GB', tier: 2, taps: [{ x: 0.1, y: 0.2 }] }), answerRow({ country: 'US', tier: 1, taps: [{ x: 0.9, y: 0.8 }, { x: 0.5, y: 0.5 }] })]): ResultEntry {
  return { ctx: { type, labels: type === 'click_test' ? [] : ['A', 'B'], imageUrl: null }, rows } as unknown as ResultEntry;
}

function setup(entries: Record<string, ResultEntry>, render?: HeatmapServiceDeps['render']) {
  const drawn: Array<{ points: readonly TapPoint[]; aspect: number }> = [];
  const service = createHeatmapService({
    results: {
      async entry(accountId: string, id: string) {
        const entry = accountId === 'acc_1' ? entries[id] : undefined;
        if (!entry) throw new AppError('not_found', 'No such question on this account.');
        return { row: {} as never, entry };
      },
    },
    sharing: {
      publicRow: async (code: string) => ({ id: code, account_id: 'acc_1' }) as never,
      sharedRow: async (token: string) => ({ id: token, account_id: 'acc_1' }) as never,
    },
    render:
      render ??
      (async (points, aspect) => {
        drawn.push({ points, aspect });
        return Buffer.from(`png ${points.length} ${aspect}`);
      }),
  });
  return { service, drawn };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a failure');
}

describe('heatmap service', () => {
  it('draws every tap of the matching answers, at the aspect asked for (default 1)', async () => {
    const { service, drawn } = setup({ q_1: entryOf('click_test') });
    await service.forAccount('acc_1', 'q_1');
    await service.forAccount('acc_1', 'q_1', { tier: 1, aspect: 2 });
    expect(drawn).toEqual([
      { points: [{ x: 0.1, y: 0.2 }, { x: 0.9, y: 0.8 }, { x: 0.5, y: 0.5 }], aspect: 1 },
      { points: [{ x: 0.9, y: 0.8 }, { x: 0.5, y: 0.5 }], aspect: 2 },
    ]);
    // A suppressed filter (fewer than 5 answers from the country) draws nothing.
    await service.forAccount('acc_1', 'q_1', { country: 'GB' });
    expect(drawn[2].points).toEqual([]);
  });

  it('the same cached answers, filter and aspect are drawn once', async () => {
    const entry = entryOf('click_test');
    const { service, drawn } = setup({ q_1: entry });
    const [a, b] = await Promise.all([service.forAccount('acc_1', 'q_1'), service.forAccount('acc_1', 'q_1')]);
    expect(a.equals(b)).toBe(true);
    await service.forPublicResults('q_1');
    expect(drawn).toHaveLength(1);
    expect(service.stats()).toMatchObject({ renders: 1, entries: 1 });
    await service.forAccount('acc_1', 'q_1', { aspect: 1.5 });
    expect(drawn).toHaveLength(2);
  });

  it('100 distinct aspects on the public routes draw at most one picture per step of the aspect ladder (issue 8, point 8)', async () => {
    const { service, drawn } = setup({ q_1: entryOf('click_test') });
    const requested = Array.from({ length: 100 }, (_, i) => 0.25 + (3.7 * i) / 99 + (i % 7) * 1e-4);
    expect(new Set(requested).size).toBe(100);
    for (const aspect of requested) await service.forPublicResults('q_1', aspect);
    for (const aspect of requested) await service.forSharedLink('q_1', aspect);
    for (const aspect of requested) await service.forAccount('acc_1', 'q_1', { aspect });
    expect(service.stats().renders).toBeLessThanOrEqual(ASPECT_LADDER.length);
    expect(drawn.length).toBe(service.stats().renders);
    for (const { aspect } of drawn) expect(ASPECT_LADDER).toContain(aspect);
    expect(service.stats().hits).toBe(300 - drawn.length);
  });

  it('404 for another account or a question that is not a click test; 400 for an aspect out of range', async () => {
    const { service, drawn } = setup({ q_1: entryOf('click_test'), q_2: entryOf('single_choice') });
    expect(await failure(service.forAccount('acc_2', 'q_1'))).toMatchObject({ code: 'not_found' });
    expect(await failure(service.forAccount('acc_1', 'q_2'))).toMatchObject({ code: 'not_found', message: expect.stringMatching(/not a click test/) });
    expect(await failure(service.forSharedLink('q_2'))).toMatchObject({ code: 'not_found' });
    for (const aspect of [0.1, 5, Number.NaN]) {
      expect(await failure(service.forAccount('acc_1', 'q_1', { aspect }))).toMatchObject({ code: 'validation_failed', details: { validation: [{ field: 'aspect', code: 'out_of_range' }] } });
      expect(await failure(service.forPublicResults('q_1', aspect))).toMatchObject({ code: 'validation_failed' });
    }
    expect(drawn).toEqual([]);
  });

  it('no more than two renders run at once; the rest wait their turn', async () => {
    let running = 0;
    let most = 0;
    const { service } = setup({ q_1: entryOf('click_test') }, async (_points, aspect) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return Buffer.from(String(aspect));
    });
    const aspects = [0.5, 0.75, 1, 4 / 3, 1.5, 2, 3];
    const pngs = await Promise.all(aspects.map((aspect) => service.forAccount('acc_1', 'q_1', { aspect })));
    expect(pngs.map(String)).toEqual(aspects.map(String));
    expect(most).toBe(2);
  });
});
