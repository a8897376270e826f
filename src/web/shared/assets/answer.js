import { announce, focusHeading, h, uid } from './dom.js';
import { formatDateTime, setStrings, t } from './i18n.js';
import { fetchView, markStarted, newNonce, submitAnswer } from './api.js';
import { abImage, multiChoice, pairwise, scale, singleChoice, yesMostlyNo } from './choices.js';
import { freeText, reasonBox } from './text.js';
import { ranking } from './ranking.js';
import { clickTest } from './click-test.js';
import { reaction } from './reaction.js';
import { humanCheck } from './turnstile.js';

/**
 * The answer page (docs/answer-link.md "The page"). One screen at a time: the question, or a
 * state (scheduled, paused, closed, full), or the thank-you. The server embeds the link view and
 * the strings in #boot; this module renders them, measures the visit and sends the answer.
 */
const WIDGETS = {
  single_choice: singleChoice,
  multi_choice: multiChoice,
  ab_image: abImage,
  pairwise,
  ranking,
  scale_1_5: scale,
  yes_mostly_no: yesMostlyNo,
  free_text: freeText,
  click_test: clickTest,
  reaction,
};

const boot = JSON.parse(document.getElementById('boot').textContent);
setStrings(boot.strings, boot.lang);
const app = document.getElementById('app');
const code = boot.code;

// Per page load (spec "Answer-page endpoints"): one nonce, counted once as started, sent with the answer.
const visit = { nonce: newNonce(), shownAt: null, interrupted: false, started: false, done: false };
document.addEventListener('visibilitychange', () => {
  // Hidden after the question was shown and before sending: the person left and came back.
  if (document.visibilityState === 'hidden' && visit.shownAt !== null && !visit.done) visit.interrupted = true;
});

function screen(children, { focus }) {
  app.replaceChildren(...children.filter(Boolean));
  if (focus) focusHeading(app);
}

function byline(view) {
  return view.shownAs ? h('p', { class: 'byline' }, t('askedBy', { name: view.shownAs })) : null;
}

/** A state instead of the question: icon ('clock' is drawn in CSS), heading, words, maybe a button. */
function stateScreen({ icon, title, body, action, tone = '' }, { focus }) {
  const clock = icon === 'clock';
  const badge = h('div', { class: `state-icon${clock ? ' clock' : ''}`, 'aria-hidden': 'true' }, clock ? '' : icon);
  screen([h('div', { class: `state ${tone}`.trim() }, badge, h('h1', {}, title), ...[].concat(body ?? []), action ?? null)], { focus });
  if (focus) announce(title);
}

/** Scheduled and paused questions open later: look again without reloading the page. */
function checkAgain() {
  const button = h('button', { type: 'button', class: 'secondary' }, t('checkAgain'));
  button.addEventListener('click', async () => {
    button.setAttribute('aria-busy', 'true');
    try {
      render(await fetchView(code), { focus: true });
    } catch {
      announce(t('errNetwork'));
    } finally {
      button.removeAttribute('aria-busy');
    }
  });
  return button;
}

function render(view, { focus = false } = {}) {
  switch (view.state) {
    case 'live':
      return renderQuestion(view, { focus });
    case 'scheduled': {
      const when = view.opensAt ? h('p', {}, h('time', { datetime: view.opensAt }, t('opensAt', { time: formatDateTime(view.opensAt) }))) : null;
      return stateScreen({ icon: 'clock', title: t('scheduledTitle'), body: when, action: checkAgain() }, { focus });
    }
    case 'paused':
      return stateScreen({ icon: 'clock', title: t('pausedTitle'), body: h('p', {}, t('pausedBody')), action: checkAgain() }, { focus });
    case 'full':
      return stateScreen({ icon: '✓', title: t('fullTitle'), body: h('p', {}, t('fullBody')) }, { focus });
    default:
      return stateScreen({ icon: '×', title: t('closedTitle'), body: h('p', {}, t('closedBody')) }, { focus });
  }
}

function renderQuestion(view, { focus }) {
  const question = view.question;
  const questionId = uid('question');
  const errorBox = h('div', { class: 'error', role: 'alert', hidden: true });
  const sendButton = h('button', { type: 'submit', class: 'primary send' }, t('send'));
  const sendArea = h('div', { class: 'send-area' });
  const ctx = { questionId, showSend: () => (sendArea.hidden = false), hideSend: () => (sendArea.hidden = true) };
  const widget = WIDGETS[question.type](question, ctx);
  const reason = question.reason !== 'off' && question.type !== 'free_text' ? reasonBox(question.reason) : null;
  const human = boot.turnstileSiteKey ? humanCheck(boot.turnstileSiteKey) : null;
  sendArea.append(...[reason?.element, human?.element, errorBox, sendButton].filter(Boolean));
  sendArea.hidden = Boolean(widget.hideSendUntilReady);

  const form = h('form', { class: 'answer-form', novalidate: true }, widget.element, sendArea);
  const sending = { busy: false };

  // Which part a "choose an answer first" kind of message is about ('widget' or 'reason'), while
  // one shows: it goes as soon as the person does what it asks, not at the next tap on Send.
  let askedOf = null;
  const showError = (message, retry = false, about = null) => {
    errorBox.replaceChildren(h('p', {}, message), retry ? h('button', { type: 'button', class: 'secondary', onclick: send }, t('retry')) : '');
    errorBox.hidden = false;
    askedOf = about;
  };
  const settle = () => {
    if (!askedOf || errorBox.hidden) return;
    const still = askedOf === 'widget' ? widget.read().error : reason.read().error;
    if (still) return;
    errorBox.hidden = true;
    askedOf = null;
  };
  // Choices and taps send `change`, text boxes `input`; both bubble up to the form.
  form.addEventListener('change', settle);
  form.addEventListener('input', settle);

  async function send() {
    if (sending.busy) return;
    const read = widget.read();
    const why = reason ? reason.read() : {};
    const problem = read.error ? read : why.error ? why : null;
    if (problem) {
      showError(t(problem.error), false, problem === read ? 'widget' : 'reason');
      problem.focus?.focus();
      return;
    }
    const token = human?.token();
    if (human && !token) return showError(t('humanWait'));
    errorBox.hidden = true;
    askedOf = null;
    sending.busy = true;
    sendButton.textContent = t('sending');
    sendButton.setAttribute('aria-disabled', 'true');
    const body = {
      answer: { ...read.answer, ...(why.reason ? { reason: why.reason } : {}) },
      nonce: visit.nonce,
      dwellMs: Math.min(86_400_000, Math.max(0, Math.round(performance.now() - visit.shownAt))),
      interrupted: visit.interrupted,
      ...(navigator.language ? { locale: navigator.language.slice(0, 12) } : {}),
      ...(token ? { humanCheckToken: token } : {}),
    };
    try {
      const result = await submitAnswer(code, body);
      visit.done = true;
      if (result.accepted) thankYou(result);
      else render({ ...view, state: result.state }, { focus: true });
    } catch (error) {
      human?.reset();
      const kind = error.kind ?? 'network';
      if (kind === 'gone') return stateScreen({ icon: '×', title: t('errGone'), body: null }, { focus: true });
      const messages = { network: t('errNetwork'), rate_limited: t('errRateLimited', { s: error.retryAfter }), invalid: t('errInvalid'), human: t('errHuman'), server: t('errServer') };
      showError(messages[kind] ?? t('errServer'), kind !== 'invalid');
    } finally {
      sending.busy = false;
      sendButton.textContent = t('send');
      sendButton.removeAttribute('aria-disabled');
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    send();
  });

  screen(
    [
      byline(view),
      h('h1', { id: questionId, class: 'question-text', tabindex: '-1' }, question.text),
      question.context ? h('p', { class: 'context' }, question.context) : null,
      form,
    ],
    { focus },
  );
  human?.mount();
  visit.shownAt = performance.now();
  if (!visit.started) {
    visit.started = true;
    markStarted(code, visit.nonce);
  }
}

function thankYou(result) {
  const link = result.showResult && result.resultCode ? h('a', { class: 'button secondary', href: `/r/${encodeURIComponent(result.resultCode)}` }, t('seeResults')) : null;
  stateScreen({ icon: '✓', title: t('thankYou'), body: h('p', {}, t('thankYouBody')), action: link, tone: 'success' }, { focus: true });
}

render(boot.view);
