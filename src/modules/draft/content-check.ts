import { visibleText } from '../../lib/text.ts';

/**
 * The automatic content check of an ask (docs/asking.md, "Refused content"). Heads are ordinary
 * people answering on their phones: a question must not ask them for secrets or personal contact
 * details, must not target them with slurs, and must not ask for anything illegal. This check
 * catches the plain cases before any credit moves (422 `content_refused`); people review the
 * rest (`question:refuse`).
 */
export interface ContentVerdict {
  category: 'personal_data' | 'credentials' | 'hate' | 'illegal';
  reason: string;
  /** Where the refused words are, as a validation item's path (`draft.options[1].label`). */
  field: string;
}

export interface ContentField {
  field: string;
  text: string | undefined;
}

const RULES: Array<{ category: ContentVerdict['category']; reason: string; pattern: RegExp }> = [
  {
    category: 'credentials',
    reason: 'Questions may not ask for passwords, PINs, one-time codes or card numbers.',
    pattern: /\b(your|ur)\s+(password|passcode|pin|one[- ]time code|otp|security code|cvv|cvc|card number|bank details|seed phrase)\b/i,
  },
  {
    category: 'personal_data',
    reason: 'Questions may not ask heads for contact details or where they live.',
    pattern: /\b(your|ur)\s+(phone number|mobile number|email address|e-mail address|home address|street address|full name|date of birth|passport number|national insurance number|social security number)\b/i,
  },
  {
    category: 'personal_data',
    reason: 'Questions may not ask heads to get in touch outside Headcount.',
    pattern: /\b(whatsapp|telegram|text|call|email|dm)\s+me\b/i,
  },
  {
    category: 'illegal',
    reason: 'Questions may not ask for help with anything illegal.',
    pattern: /\b(where|how)\s+(can|do|to)\s+(i|we|you)\s+(buy|get|make)\s+(cocaine|heroin|meth|fentanyl|a gun illegally|fake id|counterfeit)/i,
  },
  {
    category: 'hate',
    reason: 'Questions may not contain slurs.',
    // A short list of unambiguous slurs, matched as whole words; anything subtler goes to review.
    pattern: /\b(n[i1]gg(er|a)s?|f[a4]gg?[o0]ts?|k[i1]kes?|tr[a4]nn(y|ies)|sp[i1]cs?|ch[i1]nks?|wetbacks?|r[e3]t[a4]rds?)\b/i,
  },
];

/** Every text of a draft that heads read, with its path (`prefix` is `draft` or `then[0]`). */
export function contentFields(draft: { text?: string; context?: string; stimulus?: { text?: string }; options?: Array<{ label?: string }> }, prefix = 'draft'): ContentField[] {
  return [
    { field: `${prefix}.text`, text: draft.text },
    { field: `${prefix}.context`, text: draft.context },
    { field: `${prefix}.stimulus.text`, text: draft.stimulus?.text },
    ...(draft.options ?? []).map((option, i) => ({ field: `${prefix}.options[${i}].label`, text: option.label })),
  ];
}

/**
 * The first refused text, or null. The ask refuses it (422); the estimate reports it as a validation
 * item. The rules read the text as people see it: a zero-width space inside a word hides nothing.
 */
export function checkContent(fields: ContentField[]): ContentVerdict | null {
  for (const { field, text } of fields) {
    if (typeof text !== 'string' || !text) continue;
    const seen = visibleText(text);
    for (const rule of RULES) if (rule.pattern.test(seen)) return { category: rule.category, reason: rule.reason, field };
  }
  return null;
}
