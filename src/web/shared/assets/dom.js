/**
 * Small DOM helpers. Everything on the page is built with these (text goes in as text nodes,
 * never as HTML), so a question's words cannot inject markup whatever they contain.
 */

/** h('button', {type: 'button', class: 'x', onclick: fn}, 'Send') */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name === 'class') el.className = value;
    else if (name in el && typeof value !== 'string') el[name] = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

let ids = 0;
/** Unique ids for label/aria wiring. */
export const uid = (prefix) => `${prefix}-${++ids}`;

/**
 * Polite announcements for screen readers (state changes, "Tap 1 placed"). The text is cleared
 * first so the same message twice is still read.
 */
export function announce(text) {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  setTimeout(() => {
    region.textContent = text;
  }, 50);
}

/** When the step changes, focus goes to its heading so keyboard and screen-reader users start there. */
export function focusHeading(container) {
  const heading = container.querySelector('h1, h2, [data-focus-start]');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: false });
}

export const prefersReducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
