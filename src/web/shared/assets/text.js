import { h, uid } from './dom.js';
import { t } from './i18n.js';

/**
 * Text boxes: the free-text answer (up to 2,000 characters) and the reason box ("Why?", up to
 * 1,000), both with a visible label and a count of what is left. The limits are the server's
 * (answer-format.ts); `maxlength` keeps a person from typing past them.
 */
export const MAX_TEXT = 2000;
export const MAX_REASON = 1000;

function textBox({ label, max, rows, required }) {
  const id = uid('text');
  const countId = uid('count');
  const area = h('textarea', { id, rows: String(rows), maxlength: String(max), 'aria-describedby': countId, 'aria-required': required ? 'true' : null, spellcheck: 'true', autocomplete: 'off' });
  const count = h('p', { class: 'count', id: countId }, t('charsLeft', { n: max }));
  area.addEventListener('input', () => {
    count.textContent = t('charsLeft', { n: max - area.value.length });
    area.removeAttribute('aria-invalid');
  });
  const labelEl = label ? h('label', { for: id, class: 'field-label' }, label) : null;
  return { element: h('div', { class: 'field' }, labelEl, area, count), area };
}

/**
 * The text without the invisible characters at its ends (spaces, zero-width and bidi format
 * characters, default-ignorables): the server counts only what can be seen (src/lib/text.ts), so
 * an answer of only zero-width spaces is "nothing written" here too, not a failed send.
 */
const INVISIBLE_EDGES = /^[\s\p{Z}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]+|[\s\p{Z}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]+$/gu;
const visibleTrim = (value) => value.replace(INVISIBLE_EDGES, '');

export function freeText(question, ctx) {
  // A visible "Your answer" label names the box; the question is the heading right above it.
  const box = textBox({ label: t('textLabel'), max: MAX_TEXT, rows: 6, required: true });
  const read = () => {
    const text = visibleTrim(box.area.value);
    if (!text) return { error: 'writeFirst', focus: box.area };
    return { answer: { text } };
  };
  return { element: box.element, read, focus: box.area };
}

/** mode: optional | required (nothing is shown for off). */
export function reasonBox(mode) {
  const required = mode === 'required';
  const box = textBox({ label: required ? t('reasonRequired') : t('reasonOptional'), max: MAX_REASON, rows: 3, required });
  box.element.classList.add('reason');
  const read = () => {
    const reason = visibleTrim(box.area.value);
    if (required && !reason) {
      box.area.setAttribute('aria-invalid', 'true');
      return { error: 'reasonMissing', focus: box.area };
    }
    return { reason: reason || undefined };
  };
  return { element: box.element, read };
}
