import { h, uid } from './dom.js';
import { t } from './i18n.js';

/**
 * Choice-like types: single and multiple choice, A/B images, 1–5 scale, yes/mostly/no, pairwise
 * (and the choices of a reaction). Real radio buttons and checkboxes, each stretched over its
 * whole card, so a tap anywhere on the card chooses, arrow keys move within a group, and screen
 * readers announce "radio button, 2 of 3" with no ARIA of our own.
 */

/** One group of cards. items: [{value, label, imageUrl?, alt?, badge?}] */
export function choiceGroup({ items, multiple = false, labelledBy, hint = null, variant = '' }) {
  const name = uid('choice');
  const hintId = hint ? uid('hint') : null;
  const inputs = [];
  const cards = items.map((item) => {
    const input = h('input', { type: multiple ? 'checkbox' : 'radio', name, value: String(item.value), class: 'choice-input' });
    inputs.push(input);
    // With an image as the content (A/B), its alt text names the card and the caption is for the eye.
    const imageNames = Boolean(item.alt);
    return h(
      'label',
      { class: `choice${item.imageUrl ? ' has-image' : ''}` },
      input,
      h(
        'span',
        { class: 'choice-box' },
        item.imageUrl ? h('img', { class: 'choice-img', src: item.imageUrl, alt: item.alt ?? '', loading: 'eager', decoding: 'async', draggable: 'false' }) : null,
        h(
          'span',
          { class: 'choice-caption', 'aria-hidden': imageNames ? 'true' : null },
          h('span', { class: 'choice-mark', 'aria-hidden': 'true' }),
          item.badge ? h('span', { class: 'choice-badge' }, item.badge) : null,
          h('span', { class: 'choice-label' }, item.label),
        ),
      ),
    );
  });
  const element = h(
    'fieldset',
    { class: `choices ${variant}`.trim(), 'aria-labelledby': labelledBy, 'aria-describedby': hintId },
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
    h('div', { class: 'choice-list' }, cards),
  );
  const checked = () => inputs.filter((i) => i.checked).map((i) => Number(i.value));
  return { element, inputs, checked };
}

function withNeither(question, items) {
  return question.neither ? [...items, { value: question.choices.length, label: t('neither') }] : items;
}

const optionItems = (question) => question.choices.map((c, i) => ({ value: i, label: c.label, imageUrl: c.imageUrl }));

function one(group) {
  return () => {
    const [option] = group.checked();
    return option === undefined ? { error: 'chooseFirst', focus: group.inputs[0] } : { answer: { option } };
  };
}

export function singleChoice(question, ctx) {
  const group = choiceGroup({ items: withNeither(question, optionItems(question)), labelledBy: ctx.questionId });
  return { element: group.element, read: one(group) };
}

export function multiChoice(question, ctx) {
  const items = withNeither(question, optionItems(question));
  const group = choiceGroup({ items, multiple: true, labelledBy: ctx.questionId, hint: t('multiHint') });
  // "Neither" excludes the others and they exclude it: the server refuses both at once.
  if (question.neither) {
    const neither = group.inputs[group.inputs.length - 1];
    group.element.addEventListener('change', (event) => {
      if (!event.target.checked) return;
      if (event.target === neither) group.inputs.forEach((i) => i !== neither && (i.checked = false));
      else neither.checked = false;
    });
  }
  const read = () => {
    const options = group.checked();
    return options.length ? { answer: { options } } : { error: 'chooseFirst', focus: group.inputs[0] };
  };
  return { element: group.element, read };
}

export function abImage(question, ctx) {
  const items = question.choices.map((c, i) => ({ value: i, label: c.label, imageUrl: c.imageUrl, alt: c.label, badge: 'AB'[i] ?? String(i + 1) }));
  const group = choiceGroup({ items: withNeither(question, items), labelledBy: ctx.questionId, variant: 'choices-ab' });
  return { element: group.element, read: one(group) };
}

export function scale(question, ctx) {
  const items = question.choices.map((c, i) => ({ value: i, label: c.label }));
  const group = choiceGroup({ items, labelledBy: ctx.questionId, hint: t('scaleHint'), variant: 'choices-scale' });
  return { element: group.element, read: one(group) };
}

export function yesMostlyNo(question, ctx) {
  // The server sends the fixed words in English (yes, mostly, no); the page says them in its language.
  const items = question.choices.map((c, i) => ({ value: i, label: ['yes', 'mostly', 'no'].includes(c.label) ? t(c.label) : c.label }));
  const group = choiceGroup({ items, labelledBy: ctx.questionId, variant: 'choices-ymn' });
  return { element: group.element, read: one(group) };
}

/** Two different option indexes, in random order: each page load shows one random pair. */
export function randomPair(count, random = Math.random) {
  const first = Math.floor(random() * count);
  let second = Math.floor(random() * (count - 1));
  if (second >= first) second += 1;
  return [first, second];
}

export function pairwise(question, ctx) {
  const pair = randomPair(question.choices.length);
  const items = pair.map((i) => ({ value: i, label: question.choices[i].label, imageUrl: question.choices[i].imageUrl }));
  const group = choiceGroup({ items, labelledBy: ctx.questionId, hint: t('pairHint'), variant: 'choices-pair' });
  const read = () => {
    const [option] = group.checked();
    return option === undefined ? { error: 'chooseFirst', focus: group.inputs[0] } : { answer: { pair, option } };
  };
  return { element: group.element, read, pair };
}
