import { describe, expect, it } from 'vitest';
import { cellOf, clickSummary, hotspots, MAX_POINTS, tapGrid } from './clicks.ts';

describe('tap grid', () => {
  it('row-major, row 0 at the top; x = 1 or y = 1 fall in the last cell', () => {
    expect(cellOf({ x: 0, y: 0 }, 10)).toBe(0);
    expect(cellOf({ x: 0.25, y: 0.25 }, 10)).toBe(22); // col 2, row 2
    expect(cellOf({ x: 1, y: 1 }, 10)).toBe(99);
    expect(cellOf({ x: 0.95, y: 0.05 }, 10)).toBe(9); // top right
  });
});

describe('hotspots on a synthetic tap set', () => {
  // 16 taps on a 10 × 10 grid:
  //   cell (col 2, row 2): 6 taps; its right neighbour (col 3, row 2): 3 taps   → one hotspot of 9
  //   cell (col 7, row 6): 4 taps                                                → one hotspot of 4
  //   three lone taps at (col 0, row 9), (col 9, row 0), (col 5, row 5)           → noise
  // Evenly spread, a cell would hold 16/100 = 0.16 taps; dense = at least max(2, 2 × 0.16) = 2.
  const cluster1 = [[0.21, 0.22], [0.25, 0.25], [0.29, 0.28], [0.22, 0.27], [0.26, 0.21], [0.28, 0.24]];
  const cluster1b = [[0.31, 0.25], [0.35, 0.22], [0.38, 0.29]];
  const cluster2 = [[0.71, 0.61], [0.75, 0.65], [0.78, 0.68], [0.72, 0.66]];
  const noise = [[0.05, 0.95], [0.95, 0.05], [0.5, 0.5]];
  const points = [...cluster1, ...cluster1b, ...cluster2, ...noise].map(([x, y]) => ({ x, y }));

  it('counts every tap in its cell', () => {
    const { grid, taps } = tapGrid(points, 10);
    expect(taps).toBe(16);
    expect(grid[22]).toBe(6);
    expect(grid[23]).toBe(3);
    expect(grid[67]).toBe(4);
    expect(grid[90] + grid[9] + grid[55]).toBe(3);
    expect(grid.reduce((a, b) => a + b, 0)).toBe(16);
  });

  it('joins touching dense cells into boxes, busiest first, with their share of taps', () => {
    const { grid, taps } = tapGrid(points, 10);
    const spots = hotspots(grid, 10, taps);
    expect(spots).toHaveLength(2);
    // Box of cols 2–3, row 2: x 0.2, y 0.2, w 0.2, h 0.1; 9 taps = 9/16 = 0.5625.
    expect(spots[0].x).toBeCloseTo(0.2, 12);
    expect(spots[0].y).toBeCloseTo(0.2, 12);
    expect(spots[0].w).toBeCloseTo(0.2, 12);
    expect(spots[0].h).toBeCloseTo(0.1, 12);
    expect(spots[0].count).toBe(9);
    expect(spots[0].share).toBe(0.5625);
    // Cell (7, 6): x 0.7, y 0.6, w = h = 0.1; 4 taps = 0.25.
    expect(spots[1]).toMatchObject({ count: 4, share: 0.25 });
    expect(spots[1].x).toBeCloseTo(0.7, 12);
    expect(spots[1].y).toBeCloseTo(0.6, 12);
  });

  it('no taps, no hotspots; lone taps are not hotspots', () => {
    expect(hotspots(new Array(100).fill(0), 10, 0)).toEqual([]);
    const { grid, taps } = tapGrid(noise.map(([x, y]) => ({ x, y })), 10);
    expect(hotspots(grid, 10, taps)).toEqual([]);
  });

  it('the summary carries the image, all taps in the grid and at most MAX_POINTS points', () => {
    const many = Array.from({ length: MAX_POINTS + 10 }, (_, i) => [{ x: (i % 100) / 100, y: 0.5 }]);
    const clicks = clickSummary(many, 'https://example.com/a.png');
    expect(clicks).toMatchObject({ imageUrl: 'https://example.com/a.png', taps: MAX_POINTS + 10, gridSize: 10, heatmapUrl: null });
    expect(clicks.points).toHaveLength(MAX_POINTS);
    expect(clicks.grid.reduce((a, b) => a + b, 0)).toBe(MAX_POINTS + 10);
  });
});
