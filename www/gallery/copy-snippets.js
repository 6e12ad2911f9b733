// The element pages' copy buttons (www/gallery/tb-NAME.html, scripts/dist/element-docs.mjs): a
// button[data-copy] copies the text of the <code> its value names, and the page's status line says
// so, for a screen reader too. Where the clipboard is refused (an insecure origin, a policy), the
// code is selected instead, for the reader's own copy.

const status = document.querySelector('.copy-status');

for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const code = document.getElementById(button.dataset.copy);
    try {
      await navigator.clipboard.writeText(code.textContent);
      status.textContent = 'Copied.';
    } catch {
      getSelection().selectAllChildren(code);
      status.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
    }
  });
}
