import { announce, h, prefersReducedMotion } from './dom.js';
import { t } from './i18n.js';
import { choiceGroup } from './choices.js';

/**
 * Reaction: the stimulus (image, audio or text) is shown for `exposureMs`, then hidden, and only
 * then the choices appear. It starts when the person presses "Show it", not on page load, so
 * nobody misses it while the page was in a pocket (and audio may only play after a tap).
 * Once hidden it cannot be shown again: the point is the first impression.
 */
export function reaction(question, ctx) {
  const stimulus = question.stimulus ?? {};
  const exposureMs = stimulus.exposureMs ?? 3000;
  const seconds = Math.round(exposureMs / 100) / 10;
  const group = choiceGroup({ items: question.choices.map((c, i) => ({ value: i, label: c.label, imageUrl: c.imageUrl })), labelledBy: ctx.questionId });
  group.element.hidden = true;

  const start = h('button', { type: 'button', class: 'primary' }, t('reactionStart'));
  const intro = h('div', { class: 'reaction-intro' }, h('p', { class: 'hint' }, t('reactionIntro', { s: seconds })), start);
  const bar = h('div', { class: 'exposure-bar', 'aria-hidden': 'true' }, h('span'));
  const shown = h('div', { class: 'stimulus', hidden: true }, h('p', { class: 'hint', 'data-focus-start': '' }, t('reactionLook')), bar);
  const done = h('p', { class: 'hint reaction-done', hidden: true, tabindex: '-1' }, t('reactionChoose'));

  let media = null;
  if (stimulus.imageUrl) shown.append(h('img', { class: 'stimulus-img', src: stimulus.imageUrl, alt: t('imageAlt'), draggable: 'false' }));
  if (stimulus.audioUrl) shown.append((media = h('audio', { src: stimulus.audioUrl, preload: 'auto' })));
  if (stimulus.text) shown.append(h('p', { class: 'stimulus-text' }, stimulus.text));

  start.addEventListener('click', () => {
    intro.hidden = true;
    shown.hidden = false;
    announce(t('reactionLook'));
    media?.play().catch(() => undefined);
    // The bar empties over the exposure; with reduced motion it stays still (the text says it all).
    if (!prefersReducedMotion()) {
      bar.firstChild.style.transitionDuration = `${exposureMs}ms`;
      requestAnimationFrame(() => requestAnimationFrame(() => bar.classList.add('running')));
    }
    setTimeout(() => {
      media?.pause();
      shown.remove();
      group.element.hidden = false;
      done.hidden = false;
      ctx.showSend();
      done.focus();
      announce(t('reactionChoose'));
    }, exposureMs);
  });

  const element = h('div', { class: 'reaction' }, intro, shown, done, group.element);
  const read = () => {
    const [option] = group.checked();
    return option === undefined ? { error: 'chooseFirst', focus: group.inputs[0] } : { answer: { option } };
  };
  // Nothing to send before the exposure: the page hides Send and the reason box until showSend().
  return { element, read, hideSendUntilReady: true };
}
