import { Type } from '@sinclair/typebox';
import { Closed } from '../../lib/typebox.ts';
import { ResultQueryProperties } from '../results/results.schemas.ts';
import { ASPECT_LADDER_TEXT, DEFAULT_ASPECT, HEATMAP_SIDE, MAX_ASPECT, MAX_ASPECT_ERROR, MIN_ASPECT } from './heatmap.ts';

const Aspect = Type.Optional(
  Type.Number({
    minimum: MIN_ASPECT,
    maximum: MAX_ASPECT,
    default: DEFAULT_ASPECT,
    description:
      `Width / height of the stimulus image, so the picture has its shape. ${MIN_ASPECT} to ${MAX_ASPECT}; default ${DEFAULT_ASPECT} (square). ` +
      `The picture is drawn at the nearest (by ratio) of these steps: ${ASPECT_LADDER_TEXT}, so its shape is within ` +
      `${Math.ceil((MAX_ASPECT_ERROR - 1) * 100)}% of the aspect asked for; lay it over the image stretched to the image's box and the taps stay in place. ` +
      `It is ${HEATMAP_SIDE} px on its longer side (a 4:3 step: ${HEATMAP_SIDE} × ${Math.round((HEATMAP_SIDE * 3) / 4)}; 1:2: ${HEATMAP_SIDE / 2} × ${HEATMAP_SIDE}).`,
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
