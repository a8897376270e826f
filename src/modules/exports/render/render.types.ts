import type { Question } from '../../questions/questions.schemas.ts';
import type { Result } from '../../results/results.schemas.ts';

/** The three chart PNG shapes of the spec (Exports: `GET /v2/questions/{id}/export.png?size=`). */
export const EXPORT_SIZES = {
  square: { width: 1080, height: 1080 },
  wide: { width: 1200, height: 675 },
  story: { width: 1080, height: 1920 },
} as const;
export type ExportSize = keyof typeof EXPORT_SIZES;
export const DEFAULT_EXPORT_SIZE: ExportSize = 'square';

/** What every export draws: the question as asked and its result (the same records the API returns). */
export interface ChartInput {
  question: Question;
  result: Result;
}
