import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, RefOf, StringEnum } from '../../lib/typebox.ts';
import { ResultQueryProperties } from '../results/results.schemas.ts';
import type { ExportSize } from './render/render.types.ts';
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

/** Chart PNG sizes (spec Exports): `square` is the default. */
export const EXPORT_SIZE_NAMES = ['square', 'wide', 'story'] as const satisfies ReadonlyArray<ExportSize>;
export type ExportSizeName = ExportSize;
export const EXPORT_FORMATS = ['pdf', 'png'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** How long an export link opens its file without signing in (spec Limits "export link life"). */
export const EXPORT_LINK_SECONDS = 3600;

const SizeParam = StringEnum(EXPORT_SIZE_NAMES, {
  description: '`square` 1080 × 1080 (default), `wide` 1200 × 675, `story` 1080 × 1920 pixels.',
});

/** GET /v2/questions/{id}/export.png */
export const PngExportQuerySchema = Closed({ size: Type.Optional(SizeParam) });

/** GET /v2/questions/{id}/export.csv: the result's filters, with the same rules. */
export const CsvExportQuerySchema = Closed(ResultQueryProperties);

/** POST /v2/questions/{id}/exports */
export const CreateExportBodySchema = Closed({
  format: StringEnum(EXPORT_FORMATS, { description: '`pdf` (one A4 page) or `png` (the chart).' }),
  size: Type.Optional(
    Nullable(StringEnum(EXPORT_SIZE_NAMES), { description: 'PNG only: `square` 1080 × 1080 (default), `wide` 1200 × 675 or `story` 1080 × 1920. A PDF takes none (null or left out).' }),
  ),
});
export type CreateExportBody = Static<typeof CreateExportBodySchema>;

export const ExportSchema = Closed(
  {
    format: StringEnum(EXPORT_FORMATS),
    size: Nullable(StringEnum(EXPORT_SIZE_NAMES), { description: 'The PNG size; null for a PDF.' }),
    url: Type.String({ format: 'uri', description: 'Opens the file without signing in until `expiresAt`; signed, so it cannot be guessed or extended. Then 410 `link_expired`.' }),
    filename: Type.String({ description: 'The name the file is offered under: the question\'s text, then the format.' }),
    expiresAt: DateTime(),
  },
  { $id: 'Export' },
);
export type Export = Static<typeof ExportSchema>;
export const CreateExportResponseSchema = Closed({ export: RefOf(ExportSchema) });

/** GET /v1/public/exports/{token}: the signed token POST …/exports put in the url. */
export const ExportTokenParams = Closed({ exportToken: Type.String({ minLength: 1, maxLength: 1024, pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' }) });

/** Binary bodies in /openapi.json. */
export const PDF_CONTENT = { 'application/pdf': { schema: { type: 'string', format: 'binary', description: 'A one-page A4 PDF.' } } };
export const CHART_PNG_CONTENT = { 'image/png': { schema: { type: 'string', format: 'binary', description: 'The chart as a PNG image.' } } };
export const CSV_CONTENT = { 'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV, UTF-8 with a byte order mark; columns in docs/exports.md.' } } };
export const SVG_CONTENT = { 'image/svg+xml': { schema: { type: 'string', description: 'An SVG image.' } } };
