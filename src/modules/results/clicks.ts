/**
 * Click-test results (docs/results.md "Click tests"): taps counted on a gridSize × gridSize grid
 * laid over the image, and hotspots, the places where taps bunch up. Pure.
 *
 * - grid: row-major counts, row 0 at the top: cell (col, row) is grid[row * gridSize + col]; a tap
 *   at x lands in column min(floor(x × gridSize), gridSize − 1) (so x = 1 is the last column).
 * - A cell is dense when it holds at least twice the taps it would hold if taps were spread
 *   evenly (2 × taps / gridSize²) and at least 2 taps. Dense cells that touch by an edge form
 *   one hotspot: its box (x, y, w, h in 0–1 of the image), its taps (`count`) and their share of
 *   all taps. The busiest MAX_HOTSPOTS are returned, busiest first.
 */
export interface Point {
  x: number;
  y: number;
}

export interface Hotspot {
  x: number;
  y: number;
  w: number;
  h: number;
  count: number;
  share: number;
}

export interface Clicks {
  imageUrl: string | null;
  taps: number;
  points: Point[];
  grid: number[];
  gridSize: number;
  hotspots: Hotspot[];
  heatmapUrl: string | null;
}

export const GRID_SIZE = 10;
export const MAX_HOTSPOTS = 5;
/** Points listed in a result (newest first); `taps` and the grid always count every tap. */
export const MAX_POINTS = 1000;

export function cellOf(point: Point, gridSize: number): number {
  const col = Math.min(gridSize - 1, Math.max(0, Math.floor(point.x * gridSize)));
  const row = Math.min(gridSize - 1, Math.max(0, Math.floor(point.y * gridSize)));
  return row * gridSize + col;
}

export function tapGrid(points: Iterable<Point>, gridSize: number): { grid: number[]; taps: number } {
  const grid = new Array<number>(gridSize * gridSize).fill(0);
  let taps = 0;
  for (const point of points) {
    grid[cellOf(point, gridSize)] += 1;
    taps += 1;
  }
  return { grid, taps };
}

export function hotspots(grid: readonly number[], gridSize: number, taps: number, max = MAX_HOTSPOTS): Hotspot[] {
  if (taps === 0) return [];
  const threshold = Math.max(2, (2 * taps) / (gridSize * gridSize));
  const dense = grid.map((count) => count >= threshold);
  const seen = new Array<boolean>(grid.length).fill(false);
  const found: Hotspot[] = [];
  for (let start = 0; start < grid.length; start++) {
    if (!dense[start] || seen[start]) continue;
    // Flood fill over edge-neighbours.
    let count = 0;
    let minCol = gridSize, maxCol = -1, minRow = gridSize, maxRow = -1;
    const stack = [start];
    seen[start] = true;
    while (stack.length) {
      const cell = stack.pop() as number;
      const row = Math.floor(cell / gridSize);
      const col = cell % gridSize;
      count += grid[cell];
      minCol = Math.min(minCol, col);
      maxCol = Math.max(maxCol, col);
      minRow = Math.min(minRow, row);
      maxRow = Math.max(maxRow, row);
      const neighbours = [col > 0 ? cell - 1 : -1, col < gridSize - 1 ? cell + 1 : -1, row > 0 ? cell - gridSize : -1, row < gridSize - 1 ? cell + gridSize : -1];
      for (const next of neighbours) {
        if (next >= 0 && dense[next] && !seen[next]) {
          seen[next] = true;
          stack.push(next);
        }
      }
    }
    found.push({
      x: minCol / gridSize,
      y: minRow / gridSize,
      w: (maxCol - minCol + 1) / gridSize,
      h: (maxRow - minRow + 1) / gridSize,
      count,
      share: count / taps,
    });
  }
  return found.sort((a, b) => b.count - a.count || a.y - b.y || a.x - b.x).slice(0, max);
}

/** `tapsPerAnswer` newest first. heatmapUrl is null here: the result service fills it in (sharing/heatmap-urls.ts). */
export function clickSummary(tapsPerAnswer: ReadonlyArray<readonly Point[]>, imageUrl: string | null, gridSize = GRID_SIZE): Clicks {
  const all = tapsPerAnswer.flat();
  const { grid, taps } = tapGrid(all, gridSize);
  return {
    imageUrl,
    taps,
    points: all.slice(0, MAX_POINTS).map((p) => ({ x: p.x, y: p.y })),
    grid,
    gridSize,
    hotspots: hotspots(grid, gridSize, taps),
    heatmapUrl: null,
  };
}
