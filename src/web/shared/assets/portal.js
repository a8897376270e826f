/**
 * The portal's only script, and nothing needs it: copy buttons (a new key's secret). Without
 * script, or without the Clipboard API (plain http other than localhost), the buttons stay hidden
 * and the text can be selected as usual.
 */
for (const button of document.querySelectorAll('button.copy[data-copy]')) {
  const target = document.querySelector(button.dataset.copy);
  if (!target || !navigator.clipboard) continue;
  button.hidden = false;
  const label = button.textContent;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(target.textContent.trim());
      button.textContent = button.dataset.copied || label;
      setTimeout(() => { button.textContent = label; }, 2000);
    } catch {
      // Refused (no permission): the text stays there to select by hand.
    }
  });
}
