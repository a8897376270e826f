import { Type } from '@sinclair/typebox';
import { Closed } from '../../http/schemas/helpers.ts';
import { ResultQueryProperties } from '../results/results.schemas.ts';
import { DEFAULT_ASPECT, HEATMAP_WIDTH, MAX_ASPECT, MIN_ASPECT } from './heatmap.ts';

const Aspect = Type.Optional(
  Type.Number({
    minimum: MIN_ASPECT,
    maximum: MAX_ASPECT,
    default: DEFAULT_ASPECT,
    description: `Width / height of the stimulus image, so the picture lays over it exactly: the PNG is ${HEATMAP_WIDTH} px wide and ${HEATMAP_WIDTH} / aspect px high (rounded). ${MIN_ASPECT} to ${MAX_ASPECT}; default ${DEFAULT_ASPECT} (square).`,
    examples: [1.5],
  }),
);

/**
 * GET /v2/questions/{id}/heatmap.png: the result's filters and the aspect. `option` is left out:
 * only click tests have a heatmap and they have no options (the result answers 400 to it too).
 */
const { option: _option, ...filters } = ResultQueryProperties;
export const HeatmapQuerySchema = Closed({ ...filters, aspect: Aspect });

/** The public variants take no filters: the public page and share links show every tap. */
export const PublicHeatmapQuerySchema = Closed({ aspect: Aspect });

/** A PNG body in /openapi.json. */
export const PNG_CONTENT = { 'image/png': { schema: { type: 'string', format: 'binary', description: 'A PNG image (RGBA, transparent background).' } } };
