import { announce, h, uid } from './dom.js';
import { t } from './i18n.js';

/**
 * Ranking: an ordered list, most preferred first. Two ways to move an item, so nobody is left out:
 * - drag its handle (pointer events: mouse, touch and pen alike; the list reorders live as the
 *   pointer passes the middle of a neighbour);
 * - its "Move up" / "Move down" buttons (keyboard, switch access, screen readers); focus stays on
 *   the pressed button as the item moves, and the new position is announced.
 * The answer is `order`: every option index, top first (answer-format.ts).
 */
export function ranking(question, ctx) {
  const hintId = uid('hint');
  const list = h('ol', { class: 'rank-list', 'aria-labelledby': ctx.questionId, 'aria-describedby': hintId });
  const items = question.choices.map((choice, index) => rankItem(list, choice.label, index));
  items.forEach((item) => list.append(item));
  refresh(list);

  const element = h(
    'div',
    { class: 'ranking' },
    h('p', { class: 'hint', id: hintId }, t('rankHint'), h('br'), t('rankTop')),
    list,
  );
  const read = () => ({ answer: { order: [...list.children].map((li) => Number(li.dataset.index)) } });
  return { element, read };
}

function rankItem(list, label, index) {
  const up = h('button', { type: 'button', class: 'rank-move', 'aria-label': t('moveUp', { label }) }, h('span', { 'aria-hidden': 'true' }, '↑'));
  const down = h('button', { type: 'button', class: 'rank-move', 'aria-label': t('moveDown', { label }) }, h('span', { 'aria-hidden': 'true' }, '↓'));
  const handle = h('span', { class: 'rank-handle', 'aria-hidden': 'true', title: t('rankHint') }, '⠿');
  const li = h('li', { class: 'rank-item', 'data-index': String(index) }, handle, h('span', { class: 'rank-pos', 'aria-hidden': 'true' }), h('span', { class: 'rank-label' }, label), up, down);

  const move = (delta, button) => {
    const sibling = delta < 0 ? li.previousElementSibling : li.nextElementSibling;
    if (!sibling) return;
    // The neighbour moves, never the item itself: a node taken out of the document loses focus
    // (and, while dragging, its pointer capture).
    if (delta < 0) list.insertBefore(sibling, li.nextElementSibling);
    else list.insertBefore(sibling, li);
    refresh(list);
    button.focus();
    announce(t('moved', { label, pos: position(li), total: list.children.length }));
  };
  up.addEventListener('click', () => move(-1, up));
  down.addEventListener('click', () => move(1, down));
  dragWith(handle, li, list, label);
  return li;
}

const position = (li) => [...li.parentElement.children].indexOf(li) + 1;

/** Numbers and the buttons at the ends (aria-disabled, not disabled: a disabled button drops focus). */
function refresh(list) {
  const total = list.children.length;
  [...list.children].forEach((li, i) => {
    li.querySelector('.rank-pos').textContent = String(i + 1);
    const [up, down] = li.querySelectorAll('.rank-move');
    up.setAttribute('aria-disabled', String(i === 0));
    down.setAttribute('aria-disabled', String(i === total - 1));
  });
}

function dragWith(handle, li, list, label) {
  let pointerId = null;
  handle.addEventListener('pointerdown', (event) => {
    if (event.button !== 0 || pointerId !== null) return;
    pointerId = event.pointerId;
    handle.setPointerCapture(pointerId);
    li.classList.add('dragging');
    event.preventDefault();
  });
  handle.addEventListener('pointermove', (event) => {
    if (event.pointerId !== pointerId) return;
    const y = event.clientY;
    const prev = li.previousElementSibling;
    const next = li.nextElementSibling;
    if (prev && y < middle(prev)) list.insertBefore(prev, li.nextElementSibling);
    else if (next && y > middle(next)) list.insertBefore(next, li);
    else return;
    refresh(list);
  });
  const end = (event) => {
    if (event.pointerId !== pointerId) return;
    pointerId = null;
    li.classList.remove('dragging');
    announce(t('moved', { label, pos: position(li), total: list.children.length }));
  };
  handle.addEventListener('pointerup', end);
  handle.addEventListener('pointercancel', end);
}

function middle(el) {
  const rect = el.getBoundingClientRect();
  return rect.top + rect.height / 2;
}
