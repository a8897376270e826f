import { announce, h, uid } from './dom.js';
import { t } from './i18n.js';

/**
 * Click test: tap the image up to `maxTaps` times; each tap is marked with its number, "Undo"
 * removes the last. Coordinates are 0–1 from the image's top left (answer-format.ts), measured on
 * the image as drawn, so the phone's size does not matter. Keyboard: the image is focusable, the
 * arrow keys move a crosshair (Shift for bigger steps) and Enter or Space taps where it is.
 * An image that does not load leaves nothing to tap: the page says so (with a way to load it
 * again) and hides Send until it loads, so no answer is sent about an image nobody saw.
 */
const STEP = 0.02;
const BIG_STEP = 0.1;
const round = (v) => Math.round(Math.min(1, Math.max(0, v)) * 10_000) / 10_000;

export function clickTest(question, ctx) {
  const max = question.maxTaps ?? 1;
  const taps = [];
  const keysId = uid('keys');
  const img = h('img', { class: 'tap-img', src: question.stimulus?.imageUrl ?? '', alt: t('imageAlt'), draggable: 'false' });
  const cursor = h('span', { class: 'tap-cursor', 'aria-hidden': 'true', hidden: true });
  const area = h('div', { class: 'tap-area', tabindex: '0', role: 'application', 'aria-label': t('tapImage'), 'aria-describedby': `${keysId}` }, img, cursor);
  const count = h('p', { class: 'tap-count', 'aria-live': 'polite' });
  const undo = h('button', { type: 'button', class: 'secondary', disabled: true }, t('undo'));
  const keyPos = { x: 0.5, y: 0.5 };

  const render = () => {
    area.querySelectorAll('.tap-mark').forEach((m) => m.remove());
    taps.forEach((tap, i) => {
      const mark = h('span', { class: 'tap-mark', 'aria-hidden': 'true' }, String(i + 1));
      // CSSOM positions (not a style attribute), which the page's CSP allows.
      mark.style.left = `${tap.x * 100}%`;
      mark.style.top = `${tap.y * 100}%`;
      area.append(mark);
    });
    count.textContent = t('tapCount', { count: taps.length, max });
    undo.disabled = taps.length === 0;
    area.classList.toggle('full', taps.length >= max);
  };

  const place = (x, y) => {
    if (taps.length >= max) {
      announce(t('tapsFull'));
      return;
    }
    taps.push({ x: round(x), y: round(y) });
    render();
    announce(t('tapPlaced', { n: taps.length }));
    // A tap is this widget's change of answer: the page clears "Tap the image first" on it.
    area.dispatchEvent(new Event('change', { bubbles: true }));
  };

  area.addEventListener('click', (event) => {
    const rect = img.getBoundingClientRect();
    if (!rect.width || !rect.height) return;
    // A click from the keyboard (detail 0) is handled in keydown.
    if (event.detail === 0) return;
    place((event.clientX - rect.left) / rect.width, (event.clientY - rect.top) / rect.height);
  });
  area.addEventListener('keydown', (event) => {
    const step = event.shiftKey ? BIG_STEP : STEP;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (event.key in moves) {
      const [dx, dy] = moves[event.key];
      keyPos.x = round(keyPos.x + dx);
      keyPos.y = round(keyPos.y + dy);
    } else if (event.key === 'Enter' || event.key === ' ') {
      place(keyPos.x, keyPos.y);
    } else return;
    event.preventDefault();
    showCursor();
  });
  const showCursor = () => {
    cursor.hidden = false;
    cursor.style.left = `${keyPos.x * 100}%`;
    cursor.style.top = `${keyPos.y * 100}%`;
  };
  area.addEventListener('focus', () => area.matches(':focus-visible') && showCursor());
  area.addEventListener('blur', () => (cursor.hidden = true));
  undo.addEventListener('click', () => {
    taps.pop();
    render();
    announce(t('tapRemoved'));
    // The button disables itself with the last tap gone; focus must not fall to the page.
    if (!taps.length) area.focus();
  });
  render();

  const again = h('button', { type: 'button', class: 'secondary' }, t('retry'));
  const failure = h('div', { class: 'error', role: 'alert', hidden: true }, h('p', {}, t('imageFailed')), again);
  const usable = [h('p', { class: 'hint' }, t('tapImage')), area, h('div', { class: 'tap-tools' }, count, undo), h('p', { class: 'hint small', id: keysId }, t('tapKeys'))];
  let failed = false;
  const showFailure = (yes) => {
    failed = yes;
    failure.hidden = !yes;
    usable.forEach((el) => (el.hidden = yes));
    if (yes) ctx.hideSend();
    else ctx.showSend();
  };
  img.addEventListener('error', () => showFailure(true));
  img.addEventListener('load', () => failed && showFailure(false));
  again.addEventListener('click', () => {
    // Setting src again, even to the same address, makes the browser fetch it again.
    img.src = question.stimulus?.imageUrl ?? '';
  });

  const element = h('div', { class: 'click-test' }, failure, ...usable);
  const read = () => {
    if (failed) return { error: 'imageFailed', focus: again };
    return taps.length ? { answer: { taps: taps.map((p) => ({ ...p })) } } : { error: 'tapFirst', focus: area };
  };
  return { element, read };
}
