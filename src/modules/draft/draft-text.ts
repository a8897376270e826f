import { normalizeText } from '../../lib/text.ts';

/**
 * The texts of a draft that heads read (docs/asking.md "Text"), normalized before anything checks,
 * prices or stores them: the ask and the estimate both call this first, so a length is counted
 * the same way by both and the question stored is the text checked. The rules on what these texts
 * may contain are in draft-validator.ts.
 */
interface DraftTexts {
  text?: string;
  context?: string;
  options?: Array<{ label?: string }>;
  stimulus?: { text?: string };
}

const norm = <T>(value: T): T => (typeof value === 'string' ? (normalizeText(value) as T) : value);

/** A copy of the draft with its texts NFC-normalized and line breaks made LF; other fields untouched. */
export function normalizeDraftText<T extends DraftTexts>(draft: T): T {
  const copy: T = { ...draft };
  if (draft.text !== undefined) copy.text = norm(draft.text);
  if (draft.context !== undefined) copy.context = norm(draft.context);
  if (Array.isArray(draft.options)) copy.options = draft.options.map((option) => (option && typeof option === 'object' && option.label !== undefined ? { ...option, label: norm(option.label) } : option));
  if (draft.stimulus && typeof draft.stimulus === 'object') copy.stimulus = { ...draft.stimulus, ...(draft.stimulus.text !== undefined ? { text: norm(draft.stimulus.text) } : {}) };
  return copy;
}

/** Every text field of a draft with its path and whether it may run over lines. */
export function draftTextFields(draft: DraftTexts): Array<{ path: string; text: unknown; multiline: boolean }> {
  return [
    { path: 'text', text: draft.text, multiline: true },
    { path: 'context', text: draft.context, multiline: true },
    { path: 'stimulus.text', text: draft.stimulus?.text, multiline: true },
    ...(Array.isArray(draft.options) ? draft.options : []).map((option, i) => ({ path: `options[${i}].label`, text: option?.label, multiline: false })),
  ];
}
